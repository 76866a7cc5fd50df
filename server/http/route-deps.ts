import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';

/** What every area's route plugin receives. */
export interface RouteDeps {
  db: Db;
  config: Config;
  clock: Clock;
}
