import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { OrganizationEvents } from '../events/organization-events';
import type { SearchRuntime } from '../search/search-runtime';

/** What every area's route plugin receives. */
export interface RouteDeps {
  db: Db;
  /** Which database `db` is: the embedded one has a single connection (import batches are smaller there). */
  databaseKind: 'pglite' | 'postgres';
  config: Config;
  clock: Clock;
  /** The matcher and its background searches; absent in tests that do not search. */
  search?: SearchRuntime;
  /** Where writes tell open pages that an organization's hits changed; absent in tests that do not listen. */
  events?: Pick<OrganizationEvents, 'publish'>;
}
