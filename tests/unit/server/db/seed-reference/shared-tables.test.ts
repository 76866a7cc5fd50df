import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMarkerResolver } from '../../../../../server/db/seed/reference/marker-names';
import { SEED_MARKERS } from '../../../../../server/db/seed/reference/markers';
import { parseFrequencyFile } from '../../../../../server/imports/frequencies';

const shared = path.resolve(import.meta.dirname, '../../../../../../shared/data');
const resolve = buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: m.name })));

const tables: { file: string; population?: string }[] = [
  { file: 'frequencies/nist1036.csv', population: 'Cauc' },
  { file: 'frequencies/fbi2015.csv', population: 'Caucasian' },
  { file: 'formats/frequencies-formats/popSTR-europe.csv' },
  ...readdirSync(path.join(shared, 'frequencies/norstr'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => ({ file: `frequencies/norstr/${f}` })),
];

describe('the seeded markers cover the real frequency tables labs upload', () => {
  it.each(tables)('$file has no unknown marker', async ({ file, population }) => {
    const bytes = readFileSync(path.join(shared, file));
    const parsed = await parseFrequencyFile({ fileName: path.basename(file), bytes }, resolve, population ? { population } : {});
    expect(parsed.errors.filter((e) => e.message.endsWith('is invalid'))).toEqual([]);
    expect(parsed.kind === 'Autosomal' && parsed.markers.length).toBeGreaterThan(20);
  });
});
