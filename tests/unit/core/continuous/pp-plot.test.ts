import { describe, expect, it } from 'vitest';
import { betaCdf, betaQuantile } from '../../../../core/continuous/beta-distribution';
import { epgMarkers } from '../../../../core/continuous/epg-chart';
import { ppPlot } from '../../../../core/continuous/pp-plot';

// Reference values from R's pbeta/qbeta (scipy.stats.beta, the same algorithms), written out here.
describe('the beta distribution of the PP-plot envelope', () => {
  it('gives R\'s pbeta and qbeta', () => {
    expect(betaCdf(0.3, 2.5, 3.5)).toBeCloseTo(0.29675298929566646, 10);
    expect(betaCdf(0.01, 0.5, 10)).toBeCloseTo(0.3420718248432154, 10);
    expect(betaCdf(0.99, 50, 1)).toBeCloseTo(0.6050060671375364, 10);
    // qbeta(0.005, 2.5, 8.5) and qbeta(0.995, 2.5, 8.5): N = 10 at x = 0.25.
    expect(betaQuantile(0.005, 2.5, 8.5)).toBeCloseTo(0.022069682403522323, 9);
    expect(betaQuantile(0.995, 2.5, 8.5)).toBeCloseTo(0.5987994091919159, 9);
    expect(betaQuantile(0.005, 10, 1)).toBeCloseTo(0.5887040186524746, 9);
  });
});

const peak = (allele: string, cumulative: number) => ({ marker: 'D3S1358', replicate: 1, allele, height: 100, cumulative });

describe('the PP-plot of a fit (EuroForMix validMLEmodel)', () => {
  it('sets the sorted cumulative probabilities against (i − ½)/N, with envelopes at α = 0.01 and α/N', () => {
    const plot = ppPlot([peak('17', 0.9), peak('15', 0.2), peak('16', 0.6), peak('14', 0.4)]);
    expect(plot.points.map((p) => [p.allele, p.expected, p.cumulative])).toEqual([
      ['15', 0.125, 0.2],
      ['14', 0.375, 0.4],
      ['16', 0.625, 0.6],
      ['17', 0.875, 0.9],
    ]);
    expect(plot.envelopes.map((e) => e.alpha)).toEqual([0.01, 0.0025]);
    // N = 4: qbeta(α/2, 4x, 4 − 4x + 1) and qbeta(1 − α/2, …) at x = 0.5 and x = 1.
    const at = (e: number, x: number) => plot.envelopes[e]!.lines.find((l) => l.expected === x)!;
    expect(at(0, 0.5).lower).toBeCloseTo(0.029444787137933224, 9);
    expect(at(0, 0.5).upper).toBeCloseTo(0.8891150145321897, 9);
    expect(at(1, 0.5).lower).toBeCloseTo(0.014575296045794548, 9);
    expect(at(1, 1).upper).toBeCloseTo(0.9996873534087216, 9);
    expect(at(0, 0)).toEqual({ expected: 0, lower: 0, upper: 0 });
    expect(plot.outside).toBe(0);
  });

  it('marks a peak far outside the Bonferroni envelope', () => {
    // Smallest of 4 at 0.99: P(Beta(0.5, 4.5) ≥ 0.99) = 2.6e-10 < 0.0025 / 2.
    const plot = ppPlot([peak('14', 0.99), peak('15', 0.995), peak('16', 0.999), peak('17', 0.9999)]);
    expect(plot.points[0]!.outside).toBe(true);
    expect(plot.outside).toBeGreaterThanOrEqual(1);
  });

  it('draws no envelope without peaks', () => {
    expect(ppPlot([])).toEqual({ points: [], envelopes: [], outside: 0 });
  });
});

describe('the EPG chart of a fit', () => {
  it('groups the expected heights by marker with its threshold, the top being the tallest height or the threshold', () => {
    const markers = epgMarkers(
      [
        { marker: 'D3S1358', allele: '15', observed: [1000, 950], expected: 900 },
        { marker: 'D3S1358', allele: 'Q', observed: [null, null], expected: 12 },
        { marker: 'TH01', allele: '6', observed: [40, null], expected: 30 },
      ],
      new Map([['TH01', 60]]),
      50,
    );
    expect(markers).toEqual([
      { marker: 'D3S1358', threshold: 50, top: 1000, positions: [{ allele: '15', observed: [1000, 950], expected: 900 }, { allele: 'Q', observed: [null, null], expected: 12 }] },
      { marker: 'TH01', threshold: 60, top: 60, positions: [{ allele: '6', observed: [40, null], expected: 30 }] },
    ]);
  });
});
