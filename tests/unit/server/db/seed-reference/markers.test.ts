import { describe, expect, it } from 'vitest';
import { buildMarkerResolver, markerNameKey } from '../../../../../server/db/seed/reference/marker-names';
import { CODIS_CORE_MARKERS, ESS_MARKERS, SEED_MARKERS } from '../../../../../server/db/seed/reference/markers';
import { parseXml, readSharedFile } from './shared-data';

const resolve = buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: m.name })));
const seeded = (name: string) => SEED_MARKERS.find((m) => m.name === name);

describe('seed markers', () => {
  it('have distinct names and aliases, so the resolver builds over them', () => {
    expect(new Set(SEED_MARKERS.map((m) => markerNameKey(m.name))).size).toBe(SEED_MARKERS.length);
    expect(() => buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: m.name })))).not.toThrow();
  });

  it('include the 20 expanded CODIS core loci and the 12 ESS loci as autosomal markers', () => {
    expect(CODIS_CORE_MARKERS).toHaveLength(20);
    expect(ESS_MARKERS).toHaveLength(12);
    for (const name of [...CODIS_CORE_MARKERS, ...ESS_MARKERS, 'Penta D', 'Penta E', 'SE33', 'Amelogenin']) {
      expect(seeded(name), name).toMatchObject({ kind: 'Autosomal' });
    }
  });

  // shared/data/formats/FORMATS.md §0 and §3, and GENETICS.md "Profiles and alleles".
  it.each([
    ['vWA', 'vWA'],
    ['VWA', 'vWA'],
    ['TH01', 'TH01'],
    ['TH 01', 'TH01'],
    ['THO1', 'TH01'],
    ['TPOX', 'TPOX'],
    ['TP0X', 'TPOX'],
    ['Penta D', 'Penta D'],
    ['Penta_D', 'Penta D'],
    ['PentaD', 'Penta D'],
    ['PENTAD', 'Penta D'],
    ['PENTA_D', 'Penta D'],
    ['Penta E', 'Penta E'],
    ['Penta_E', 'Penta E'],
    ['PENTAE', 'Penta E'],
    ['PENTA_E', 'Penta E'],
    ['AMEL', 'Amelogenin'],
    ['AM', 'Amelogenin'],
    ['Amelogenin', 'Amelogenin'],
    ['DYS389I', 'DYS389I'],
    ['DYS389 I', 'DYS389I'],
    ['DYS389II', 'DYS389II'],
    ['DYS389 II', 'DYS389II'],
    ['YGATAH4', 'YGATAH4'],
    ['Y-GATA-H4', 'YGATAH4'],
    ['Y GATA H4', 'YGATAH4'],
    ['DYS385', 'DYS385'],
    ['DYS385 a/b', 'DYS385'],
    ['DYS385a/b', 'DYS385'],
    ['DYS385ab', 'DYS385'],
    ['DYS385a', 'DYS385'],
    ['DYS385b', 'DYS385'],
    ['DYF387S1 a/b', 'DYF387S1'],
    ['Yindel', 'Yindel'],
    ['Y indel', 'Yindel'],
  ])('"%s" resolves to %s', (spelling, canonical) => {
    expect(resolve(spelling)?.name).toBe(canonical);
  });

  it('keep DYS389I and DYS389II apart and resolve neither from the bare DYS389', () => {
    expect(resolve('DYS389 I')?.id).toBe('DYS389I');
    expect(resolve('DYS389 II')?.id).toBe('DYS389II');
    expect(resolve('DYS389')).toBeUndefined();
  });

  it('cover every locus name of the CODIS CMF 3.2 list (OSIRIS CMF-2017.xsd)', () => {
    const xsd = parseXml(readSharedFile('cmf/CMF-2017.xsd')) as {
      'xsd:schema': { 'xsd:simpleType': { '@_name': string; 'xsd:restriction': { 'xsd:enumeration': { '@_value': string }[] } }[] };
    };
    const type = xsd['xsd:schema']['xsd:simpleType'].find((t) => t['@_name'] === 'LocusNameType');
    const names = type!['xsd:restriction']['xsd:enumeration'].map((e) => e['@_value']);
    expect(names.length).toBeGreaterThanOrEqual(50);
    expect(names.filter((n) => resolve(n) === undefined)).toEqual([]);
  });

  it('flag exactly the multi-copy Y markers, matching the Yfiler Plus STRmix kit settings', () => {
    expect(SEED_MARKERS.filter((m) => m.multiCopy).map((m) => m.name)).toEqual(['DYS385', 'DYS527', 'DYF387S1']);
    const kit = parseXml(readSharedFile('kits/YFiler_Plus_3500_FSSA.xml')) as {
      profilingKit: { loci: { locus: { '@_name': string; multiCopyMarker?: string }[] } };
    };
    for (const locus of kit.profilingKit.loci.locus) {
      const name = resolve(locus['@_name'])?.name;
      expect(name, locus['@_name']).toBeDefined();
      expect(seeded(name!)?.multiCopy === true, locus['@_name']).toBe(locus.multiCopyMarker === 'Y');
    }
  });
});
