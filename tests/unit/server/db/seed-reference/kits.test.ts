import { describe, expect, it } from 'vitest';
import { SEED_CHEMISTRIES, type SeedChemistry } from '../../../../../server/db/seed/reference/kits';
import { buildMarkerResolver } from '../../../../../server/db/seed/reference/marker-names';
import { SEED_MARKERS } from '../../../../../server/db/seed/reference/markers';
import { readLadderInfo, readSharedFile } from './shared-data';

const resolve = buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: m.name })));

/** Each seeded kit: its OSIRIS LadderInfo file, its strvalidator kit.txt panel and its published locus count. */
const SOURCES: Record<string, { ladderInfo: string; panel: string; publishedLoci: number }> = {
  GlobalFiler: { ladderInfo: 'GlobalFiler_LadderInfo.xml', panel: 'GlobalFiler_Panel_v1', publishedLoci: 24 },
  'PowerPlex Fusion 6C': { ladderInfo: 'PPFusion6C_LadderInfo.xml', panel: 'PowerPlex_Fusion_6C_Panels_IDX_v1.1', publishedLoci: 27 },
  'Identifiler Plus': { ladderInfo: 'IdentifilerPlus_LadderInfo.xml', panel: 'Identifiler_Plus_Panels_v1X', publishedLoci: 16 },
  'PowerPlex Y23': { ladderInfo: 'PPlexY23_LadderInfo.xml', panel: 'PowerPlexY23_IDX_v1.1', publishedLoci: 23 },
  'Yfiler Plus': { ladderInfo: 'YfilerPlus_LadderInfo.xml', panel: 'Yfiler_Plus_Panel_v1', publishedLoci: 27 },
};

const source = (kit: SeedChemistry) => SOURCES[kit.name]!;

/** Canonical names of a source's marker spellings; an unresolved spelling stays visible as `?spelling`. */
const canonical = (names: readonly string[]) => names.map((n) => resolve(n)?.name ?? `?${n}`);

describe('seed chemistries', () => {
  it('are the five kits with a known source', () => {
    expect(SEED_CHEMISTRIES.map((k) => k.name)).toEqual(Object.keys(SOURCES));
  });

  it.each(SEED_CHEMISTRIES)('$name lists each marker once, by its canonical seed name', (kit) => {
    expect(new Set(kit.markers).size).toBe(kit.markers.length);
    for (const name of kit.markers) expect(resolve(name)?.name, name).toBe(name);
  });

  it.each(SEED_CHEMISTRIES)('$name has its published number of loci, a multi-copy marker counting twice', (kit) => {
    // DYS385 a/b and DYF387S1 a/b are duplicated loci: one marker, two loci in the published counts.
    const loci = kit.markers.reduce((n, name) => n + (SEED_MARKERS.find((m) => m.name === name)?.multiCopy ? 2 : 1), 0);
    expect(loci).toBe(source(kit).publishedLoci);
  });

  it.each(SEED_CHEMISTRIES)('$name lists exactly the loci of its OSIRIS LadderInfo file, in its order', (kit) => {
    const ladder = readLadderInfo(source(kit).ladderInfo);
    expect(canonical(ladder.loci.map((l) => l.name))).toEqual(kit.markers);
  });

  it.each(SEED_CHEMISTRIES)('$name: the Y markers are exactly the loci its LadderInfo file marks Y-linked', (kit) => {
    const ladder = readLadderInfo(source(kit).ladderInfo);
    const yLinked = canonical(ladder.loci.filter((l) => l.yLinked).map((l) => l.name));
    expect(kit.markers.filter((name) => resolve(name)?.kind === 'YStr')).toEqual(yLinked);
  });

  it.each(SEED_CHEMISTRIES)("$name agrees with strvalidator's kit.txt panel, which spells some loci differently", (kit) => {
    const rows = readSharedFile('kits/kit.txt').split(/\r?\n/).map((line) => line.split('\t'));
    const markers = [...new Set(rows.filter((r) => r[0] === source(kit).panel).map((r) => r[1]!))];
    expect(canonical(markers)).toEqual(kit.markers);
  });

  it('give a Y-STR kit the Y-STR kind and an autosomal kit the autosomal kind', () => {
    for (const kit of SEED_CHEMISTRIES) {
      const autosomal = kit.markers.filter((name) => resolve(name)?.kind === 'Autosomal').length;
      expect(kit.kind, kit.name).toBe(autosomal > 0 ? 'Autosomal' : 'YStr');
    }
  });
});
