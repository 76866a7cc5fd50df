import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABRETRIEVER_LOCUS_ABBREVIATIONS, expandLabRetrieverLocus } from '../../../core/locus-abbreviations';

/** The marker names of strvalidator's kit definitions (shared/data/formats/kits/kit.txt, column Marker). */
function kitMarkers(): Set<string> {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/formats/kits/kit.txt'), 'utf8');
  const [header, ...rows] = text.split(/\r?\n/).filter((l) => l !== '');
  const column = header!.split('\t').indexOf('Marker');
  return new Set(rows.map((r) => r.split('\t')[column]!));
}

describe('LabRetriever short locus names', () => {
  const markers = kitMarkers();

  it('stand for markers the kits of kit.txt really type, so a count table lands on a marker a profile carries', () => {
    const targets = Object.values(LABRETRIEVER_LOCUS_ABBREVIATIONS);
    expect(targets.filter((t) => !markers.has(t))).toEqual([]);
  });

  it('never shadow a marker name a kit writes, so a full name is never re-read as another marker', () => {
    expect(Object.keys(LABRETRIEVER_LOCUS_ABBREVIATIONS).filter((a) => markers.has(a))).toEqual([]);
  });

  it('read D3, THO and TPO as D3S1358, TH01 and TPOX, in any case, and leave full names alone', () => {
    expect(['D3', 'tho', 'TPO', 'FGA', 'vWA', 'Penta D'].map(expandLabRetrieverLocus)).toEqual(['D3S1358', 'TH01', 'TPOX', 'FGA', 'vWA', 'Penta D']);
  });
});
