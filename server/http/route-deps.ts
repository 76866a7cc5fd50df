import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { SearchRuntime } from '../search/search-runtime';

/** What every area's route plugin receives. */
export interface RouteDeps {
  db: Db;
  config: Config;
  clock: Clock;
  /** The matcher and its background searches; absent in tests that do not search. */
  search?: SearchRuntime;
}
