// An FBI 2015 population (../shared/data/frequencies/fbi2015.csv) added through the API as an administrator does:
// the population, then its statistics file, shared with the organizations named.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from './server-process';

const FBI_2015 = path.resolve(import.meta.dirname, '../../shared/data/frequencies/fbi2015.csv');

/** Adds "FBI 2015 <population>" with its statistics and shares it with the organizations; its id. */
export async function uploadFbi2015Population(client: Client, adminToken: string, population: string, organizationIds: string[]): Promise<string> {
  const created = (await client.call<{ id: string; version: number }>(adminToken, 'POST', '/api/populations', { name: `FBI 2015 ${population}`, kind: 'Autosomal', organizationIds })).body;
  const form = new FormData();
  form.append('version', String(created.version));
  form.append('population', population);
  form.append('file', new Blob([new Uint8Array(readFileSync(FBI_2015))], { type: 'text/csv' }), 'fbi2015.csv');
  const res = await fetch(`${client.origin}/api/populations/${created.id}/statistics`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
  if (!res.ok) throw new Error(`uploading FBI 2015 ${population}: ${res.status} ${(await res.text()).slice(0, 500)}`);
  return created.id;
}
