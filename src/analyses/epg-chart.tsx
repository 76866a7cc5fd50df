import { useId } from 'react';
import { epgMarkers, type EpgMarker } from '../../core/continuous/epg-chart';
import type { ExpectedHeight } from '../../core/continuous/validation-types';

const HEIGHT = 180;
const TOP = 12;
const BOTTOM = 28;
const LEFT = 44;
const BAR = 10;
const GAP = 12;

/** A round number of RFU at or above `value` for the axis top (1, 2 or 5 × 10ⁿ). */
function niceTop(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

/** One marker: per allele a bar per replicate (observed) and an outlined bar (expected), and the threshold line. */
function MarkerChart({ m, replicates }: { m: EpgMarker; replicates: number }) {
  const top = niceTop(m.top);
  const group = (replicates + 1) * BAR + GAP;
  const width = LEFT + m.positions.length * group + GAP;
  const y = (rfu: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - rfu / top);
  return (
    <svg className="epg-chart__marker" viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} role="img" aria-label={`${m.marker}: observed and expected peak heights, analytical threshold ${m.threshold} RFU`}>
      <text className="epg-chart__title" x={LEFT} y={10}>
        {m.marker}
      </text>
      <line className="epg-chart__axis" x1={LEFT} y1={y(0)} x2={width} y2={y(0)} />
      <line className="epg-chart__axis" x1={LEFT} y1={TOP} x2={LEFT} y2={y(0)} />
      {[0, top / 2, top].map((t) => (
        <text key={t} className="epg-chart__tick" x={LEFT - 4} y={y(t) + 4} textAnchor="end">
          {t}
        </text>
      ))}
      {m.positions.map((p, i) => {
        const left = LEFT + GAP + i * group;
        return (
          <g key={p.allele}>
            {p.observed.map((h, r) =>
              h === null ? null : (
                <rect key={r} className={`epg-chart__observed epg-chart__observed--${r % 4}`} x={left + r * BAR} y={y(h)} width={BAR - 1} height={y(0) - y(h)}>
                  <title>{`${m.marker} ${p.allele}, replicate ${r + 1}: observed ${h} RFU`}</title>
                </rect>
              ),
            )}
            <rect className="epg-chart__expected" x={left + replicates * BAR} y={y(p.expected)} width={BAR - 1} height={Math.max(0, y(0) - y(p.expected))}>
              <title>{`${m.marker} ${p.allele}: expected ${Math.round(p.expected)} RFU`}</title>
            </rect>
            <text className="epg-chart__allele" x={left + ((replicates + 1) * BAR) / 2} y={HEIGHT - 12} textAnchor="middle">
              {p.allele}
            </text>
          </g>
        );
      })}
      <line className="epg-chart__threshold" x1={LEFT} y1={y(m.threshold)} x2={width} y2={y(m.threshold)}>
        <title>{`Analytical threshold ${m.threshold} RFU`}</title>
      </line>
    </svg>
  );
}

/**
 * The electropherogram-style view of a fit (issue 31): per marker the observed height of each allele in each
 * replicate beside the height the fitted model expects (degradation and stutters included; Q is every unseen allele),
 * with the analytical threshold as a dashed line. Heights under the threshold count as not seen and have no bar.
 */
export function EpgChart({ expected, thresholds, fallbackThreshold, title }: { expected: readonly ExpectedHeight[]; thresholds: ReadonlyMap<string, number>; fallbackThreshold: number; title: string }) {
  const id = useId();
  const replicates = Math.max(1, ...expected.map((e) => e.observed.length));
  const markers = epgMarkers(expected, thresholds, fallbackThreshold);
  return (
    <figure className="epg-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="log10-chart__caption">
        {title}: {markers.length} marker{markers.length === 1 ? '' : 's'}; filled bars observed (one per replicate), outlined bars expected, dashed line the analytical threshold
      </figcaption>
      <div className="epg-chart__markers">
        {markers.map((m) => (
          <MarkerChart key={m.marker} m={m} replicates={replicates} />
        ))}
      </div>
    </figure>
  );
}
