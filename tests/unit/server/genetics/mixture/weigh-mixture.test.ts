/**
 * A mixture run's drop-outs under each hypothesis (issue 30, GENETICS.md "Mixtures"): LRmix Studio's and forensim's
 * convention by default — the unknown in the person of interest's place under Hd takes the unknowns' drop-out —
 * Hd's drop-outs settable and stated; an impossible Hp is LR 0 with each estimate saying no drop-out explains it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MixtureSetting } from '../../../../../core/schemas/mixtures';
import { GIVEN_HD_RULE, LRMIX_HD_RULE } from '../../../../../server/genetics/mixture/hypothesis-dropouts';
import { weighMixture, type MixtureProfiles } from '../../../../../server/genetics/mixture/weigh-mixture';
import type { Genotype, PopulationFrequencies } from '../../../../../server/genetics/types';

const DATA = path.resolve(__dirname, '../../../../../../shared/data/formats');
const rows = (file: string, separator: string) => readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/).map((l) => l.split(separator));

/** The Norwegian ESX17 frequencies (EuroForMix's example data), one column per marker. */
function norway(): PopulationFrequencies {
  const [header, ...table] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
  const markers = header!.slice(1).map((m, j) => [m, { sampleSize: null, frequencies: new Map(table.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const);
  return { name: 'Norway ESX17', minimumAlleleFrequency: 0.001, markers: new Map(markers) };
}
const stain = (name: string) => new Map(rows('genemapper/ESX17_evids_LTDNA.csv', ';').filter((r) => r[0] === name).map((r) => [r[1]!, r.slice(2, 7).filter(Boolean)]));
const reference = (name: string) => new Map(rows('genemapper/ESX17_refs.csv', ',').filter((r) => r[0] === name).map((r) => [r[1]!, [...new Set(r.slice(2, 4))]]));

const setting = (over: Partial<MixtureSetting>): MixtureSetting => ({ contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.2, 0.3] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false, ...over });
const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

describe('the drop-out of the unknown in the person of interest\'s place under Hd', () => {
  const profiles: MixtureProfiles = { replicates: [stain('stain51')], personOfInterest: reference('ref1'), knownContributors: [reference('ref2')] };

  it('ESX17 stain51 (POI ref1 0.1, ref2 0.2, U 0.3, c 0.05, θ 0.01): LRmix Studio\'s 74,945, not 905,372', () => {
    const r = weighMixture(setting({}), profiles, norway(), null);
    expect(r.skippedMarkers).toEqual([]);
    expect(relative(r.lr, 74_945.2)).toBeLessThan(1e-6);
    expect(r.parameters).toMatchObject({ dropoutHp: [0.1, 0.2, 0.3], dropoutHd: [0.3, 0.2, 0.3], dropoutHdRule: LRMIX_HD_RULE });
  });

  it('Hd\'s drop-outs may be given: the person of interest\'s value for that unknown gives the old 905,372, and the answer says so', () => {
    const r = weighMixture(setting({ dropout: { mode: 'fixed', values: [0.1, 0.2, 0.3], hdValues: [0.1, 0.2, 0.3] } }), profiles, norway(), null);
    expect(relative(r.lr, 905_371.7)).toBeLessThan(1e-6);
    expect(r.parameters).toMatchObject({ dropoutHd: [0.1, 0.2, 0.3], dropoutHdRule: GIVEN_HD_RULE });
  });

  it('by hand: POI 10/10 (d 0.1) and one unknown (d 0.5), stain shows 10 alone, c = θ = 0', () => {
    // With p = P(10) = 0.1 and every other allele dropped: Hp = (p + (1 − p)·0.5)² − 0.1²·0.5² = 0.3;
    // Hd, both unknowns at 0.5: (p + (1 − p)·0.5)⁴ − 0.5⁴; with the old rule one at 0.1: (0.19)²(0.55)² − 0.1²·0.5².
    const population: PopulationFrequencies = { name: 'two', minimumAlleleFrequency: 0.001, markers: new Map([['M', { sampleSize: null, frequencies: new Map([['10', 0.1], ['11', 0.9]]) }]]) };
    const one: MixtureProfiles = { replicates: [new Map<string, Genotype>([['M', ['10']]])], personOfInterest: new Map([['M', ['10']]]), knownContributors: [] };
    const run = (hdValues?: number[]) => weighMixture(setting({ contributors: 2, dropIn: 0, theta: 0, dropout: { mode: 'fixed', values: [0.1, 0.5], ...(hdValues ? { hdValues } : {}) } }), one, population, null).markers[0]!;
    const lrmix = run();
    expect(relative(lrmix.likelihoodHp, 0.3)).toBeLessThan(1e-12);
    expect(relative(lrmix.likelihoodHd, 0.55 ** 4 - 0.5 ** 4)).toBeLessThan(1e-12);
    expect(relative(lrmix.lr, 0.3 / (0.55 ** 4 - 0.5 ** 4))).toBeLessThan(1e-12);
    expect(relative(run([0.1, 0.5]).likelihoodHd, 0.19 ** 2 * 0.55 ** 2 - 0.1 ** 2 * 0.5 ** 2)).toBeLessThan(1e-12);
  });

  it('refuses Hd drop-outs of the wrong length, naming the order', () => {
    expect(() => weighMixture(setting({ dropout: { mode: 'fixed', values: [0.1], hdValues: [0.1, 0.2] } }), profiles, norway(), null)).toThrow(/under Hd .*\(3\).*the unknown in the person of interest's place/);
  });
});

describe('an impossible Hp (drop-in 0, an allele seen the person of interest lacks)', () => {
  const population: PopulationFrequencies = { name: 'four', minimumAlleleFrequency: 0.001, markers: new Map(['M', 'N'].map((m) => [m, { sampleSize: null, frequencies: new Map([['10', 0.1], ['11', 0.2], ['12', 0.3], ['13', 0.4]]) }])) };
  const profiles: MixtureProfiles = { replicates: [new Map([['M', ['10', '12']], ['N', ['10']]])], personOfInterest: new Map([['M', ['10', '11']], ['N', ['10']]]), knownContributors: [] };
  const single = (dropout: MixtureSetting['dropout']) => setting({ contributors: 1, dropIn: 0, theta: 0, dropout });

  it('is LR 0 with a fixed drop-out, the marker named, nothing infinite in the answer', () => {
    const r = weighMixture(single({ mode: 'fixed', values: [0.2] }), profiles, population, null, { estimateDropout: true });
    expect(r.lr).toBe(0);
    expect(r.log10).toBeNull();
    expect(r.markers.find((m) => m.marker === 'M')).toMatchObject({ lr: 0, log10: null, likelihoodHp: 0 });
    const hp = r.estimates.find((e) => e.hypothesis === 'Hp')!;
    expect(hp).toMatchObject({ maximumLikelihood: null, log10Likelihood: null, conservative: null });
    expect(hp.note).toMatch(/No drop-out explains the evidence under Hp/);
    expect(r.estimates.flatMap((e) => [e.maximumLikelihood, e.log10Likelihood]).every((v) => v === null || Number.isFinite(v))).toBe(true);
  });

  it('is LR 0 with a maximum-likelihood drop-out: Hp has none, Hd its own', () => {
    const r = weighMixture(single({ mode: 'estimated', estimate: 'maximum-likelihood' }), profiles, population, null);
    expect(r.lr).toBe(0);
    expect(r.estimates.map((e) => [e.hypothesis, e.maximumLikelihood === null])).toEqual([['Hp', true], ['Hd', false]]);
  });
});

describe('the drop-out estimates are computed only when asked for or used', () => {
  const profiles: MixtureProfiles = { replicates: [stain('stain51')], personOfInterest: reference('ref1'), knownContributors: [reference('ref2')] };

  it('none with a fixed drop-out, both when asked, Hd\'s alone for the conservative drop-out', () => {
    expect(weighMixture(setting({}), profiles, norway(), null).estimates).toEqual([]);
    const conservative = weighMixture(setting({ dropout: { mode: 'estimated', estimate: 'conservative' } }), profiles, norway(), null);
    expect(conservative.estimates.map((e) => e.hypothesis)).toEqual(['Hd']);
    expect(conservative.parameters.dropoutHp).toEqual([conservative.estimates[0]!.conservative, conservative.estimates[0]!.conservative, conservative.estimates[0]!.conservative]);
    // A maximum-likelihood drop-out needs no simulation: none is run unless asked for.
    const ml = weighMixture(setting({ dropout: { mode: 'estimated', estimate: 'maximum-likelihood' } }), profiles, norway(), null);
    expect(ml.estimates.map((e) => [e.hypothesis, e.tried, e.conservative])).toEqual([['Hp', 0, null], ['Hd', 0, null]]);
  }, 60_000);
});
