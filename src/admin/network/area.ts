import { createElement } from 'react';
import type { FeatureArea } from '../../app/feature-area';
import { lazyPage } from '../../app/lazy-page';

const ServiceClientsPage = lazyPage(() => import('./service-clients-page'), 'ServiceClientsPage');
const NetworkSettingsPage = lazyPage(() => import('./network-settings-page'), 'NetworkSettingsPage');
const NetworkDeliveryPage = lazyPage(() => import('./delivery-page'), 'NetworkDeliveryPage');

/** The network of laboratories (issue 32): service clients, this instance's settings and the delivery of its uploads. */
export const networkArea: FeatureArea = {
  views: {
    ServiceClients: () => createElement(ServiceClientsPage),
    NetworkSettings: () => createElement(NetworkSettingsPage),
    NetworkDelivery: () => createElement(NetworkDeliveryPage),
  },
};
