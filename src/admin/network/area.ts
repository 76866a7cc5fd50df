import { createElement } from 'react';
import type { FeatureArea } from '../../app/feature-area';
import { lazyPage } from '../../app/lazy-page';

const ServiceClientsPage = lazyPage(() => import('./service-clients-page'), 'ServiceClientsPage');
const NetworkSettingsPage = lazyPage(() => import('./network-settings-page'), 'NetworkSettingsPage');

/** The network of laboratories (issue 32): service clients and this instance's settings. */
export const networkArea: FeatureArea = {
  views: {
    ServiceClients: () => createElement(ServiceClientsPage),
    NetworkSettings: () => createElement(NetworkSettingsPage),
  },
};
