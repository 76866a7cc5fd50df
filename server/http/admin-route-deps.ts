import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';

/** What every administration route plugin receives. */
export interface AdminRouteDeps {
  db: Db;
  config: Config;
  clock: Clock;
}
