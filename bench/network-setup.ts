// How administrators join a laboratory's instance to its upper instance (README "Running a network of laboratories"),
// through the HTTP API alone: at the upper instance a service client and the lower instance registered with its
// laboratories; at the laboratory its level, the upper instance's address and the client's credentials, then Test
// connection.
import type { NetworkInstance } from './network-instance';

interface Settings {
  version: number;
}

/** Names the instance and its level (no upper instance). */
export async function nameInstance(instance: NetworkInstance, name: string, level: 'Local' | 'State' | 'National'): Promise<void> {
  const { version } = await instance.call<Settings>('GET', '/api/network/settings');
  await instance.call('PUT', '/api/network/settings', { name, level, upperUrl: null, upperClientId: null, version });
}

export interface Joined {
  /** The service client's credentials at the upper instance (the secret is shown once, at creation). */
  credentials: { url: string; clientId: string; clientSecret: string };
  /** The laboratories' organizations at the upper instance, by name. */
  laboratories: Map<string, string>;
}

/** Joins `lower` (its laboratories named) to `upper`; throws unless Test connection names the upper instance. */
export async function joinUpper(upper: NetworkInstance, lower: NetworkInstance, name: string, laboratories: string[]): Promise<Joined> {
  const client = await upper.call<{ id: string; clientId: string; clientSecret: string }>('POST', '/api/service-clients', { name: `${name} (service client)` });
  const registered = await upper.call<{ laboratories: { id: string; name: string }[] }>('POST', '/api/network/lower-instances', { name, serviceClientId: client.id, laboratories });
  const { version } = await lower.call<Settings>('GET', '/api/network/settings');
  await lower.call('PUT', '/api/network/settings', { name, level: 'Local', upperUrl: upper.origin, upperClientId: client.clientId, upperClientSecret: client.clientSecret, version });
  const test = await lower.call<{ ok: boolean; error?: string }>('POST', '/api/network/settings/test-connection');
  if (!test.ok) throw new Error(`Test connection from ${name} to ${upper.origin} failed: ${test.error}`);
  return { credentials: { url: upper.origin, clientId: client.clientId, clientSecret: client.clientSecret }, laboratories: new Map(registered.laboratories.map((l) => [l.name, l.id])) };
}
