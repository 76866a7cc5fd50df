import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { lazyPage } from '../../app/lazy-page';

const AboutPage = lazyPage(() => import('./about-page'), 'AboutPage');
const ContactPage = lazyPage(() => import('./contact-page'), 'ContactPage');

/** About us and Contact (spec 2.6): editable texts, and the contact form that sends nothing. */
export const settingsTextsArea: FeatureArea = {
  views: {
    About: () => createElement(AboutPage),
    Contact: ({ params }: RouteViewProps) => createElement(ContactPage, { orgId: params.orgId! }),
  },
};
