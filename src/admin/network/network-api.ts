import type { z } from 'zod';
import type {
  ConnectionTest,
  CreateServiceClientBody,
  CreatedServiceClient,
  InstanceSettings,
  InstanceSettingsBody,
  LowerInstance,
  RegisterLowerInstanceBody,
  ServiceClient,
} from '../../../core/schemas/network';
import type { OutboxEntry, OutboxList } from '../../../core/schemas/network-delivery';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

export type NewServiceClient = z.infer<typeof CreateServiceClientBody>;
export type CreatedClient = z.infer<typeof CreatedServiceClient>;
export type SettingsInput = z.infer<typeof InstanceSettingsBody>;
export type NewLowerInstance = z.infer<typeof RegisterLowerInstanceBody>;

/** The network of laboratories (issue 32): service clients, this instance's settings and its lower instances. */
export function networkApi(api: ApiClient) {
  return {
    clients: async (): Promise<ServiceClient[]> => (await unwrap(api.GET('/api/service-clients'))).items,
    createClient: (body: NewServiceClient): Promise<CreatedClient> => unwrap(api.POST('/api/service-clients', { body })),
    revokeClient: (id: string): Promise<ServiceClient> => unwrap(api.POST('/api/service-clients/{id}/revoke', { params: { path: { id } } })),
    settings: (): Promise<InstanceSettings> => unwrap(api.GET('/api/network/settings')),
    saveSettings: (body: SettingsInput): Promise<InstanceSettings> => unwrap(api.PUT('/api/network/settings', { body })),
    testConnection: (): Promise<ConnectionTest> => unwrap(api.POST('/api/network/settings/test-connection')),
    lowerInstances: async (): Promise<LowerInstance[]> => (await unwrap(api.GET('/api/network/lower-instances'))).items,
    registerLowerInstance: (body: NewLowerInstance): Promise<LowerInstance> => unwrap(api.POST('/api/network/lower-instances', { body })),
    outbox: (): Promise<OutboxList> => unwrap(api.GET('/api/network/outbox')),
    deliverNow: (): Promise<OutboxList> => unwrap(api.POST('/api/network/outbox/deliver')),
    retry: (id: string): Promise<OutboxEntry> => unwrap(api.POST('/api/network/outbox/{id}/retry', { params: { path: { id } } })),
  };
}

export type NetworkCalls = ReturnType<typeof networkApi>;
