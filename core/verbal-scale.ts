// The verbal equivalent of a likelihood ratio on the scale a laboratory chooses (issue 18; organizations.verbal_scale).
// Each scale is a list of lower bounds for LR ≥ 1; an LR below 1 is read as 1/LR in support of the other
// proposition, as both guidelines direct.

export const VERBAL_SCALE_KEYS = ['enfsi-2015', 'swgdam-2018', 'none'] as const;
export type VerbalScaleKey = (typeof VERBAL_SCALE_KEYS)[number];

interface VerbalScale {
  label: string;
  source: string;
  /** Ascending lower bounds (LR ≥ from) with the support they give; the first starts at 1. */
  steps: readonly { from: number; support: string }[];
}

/**
 * ENFSI Guideline for Evaluative Reporting in Forensic Science (European Network of Forensic Science Institutes,
 * 2015), verbal equivalents of the LR: 1 no support; 2–10 weak; 10–100 moderate; 100–1,000 moderately strong;
 * 1,000–10,000 strong; 10,000–1,000,000 very strong; over 1,000,000 extremely strong. An LR between 1 and 2 is
 * read as giving no support (the guideline names none below 2).
 */
const ENFSI_2015: VerbalScale = {
  label: 'ENFSI 2015 guideline for evaluative reporting',
  source: 'ENFSI Guideline for Evaluative Reporting in Forensic Science, European Network of Forensic Science Institutes, 2015',
  steps: [
    { from: 1, support: 'no support' },
    { from: 2, support: 'weak support' },
    { from: 10, support: 'moderate support' },
    { from: 100, support: 'moderately strong support' },
    { from: 1_000, support: 'strong support' },
    { from: 10_000, support: 'very strong support' },
    { from: 1_000_000, support: 'extremely strong support' },
  ],
};

/**
 * Recommendations of the SWGDAM Ad Hoc Working Group on Genotyping Results Reported as Likelihood Ratios
 * (Scientific Working Group on DNA Analysis Methods, 2018), verbal qualifiers: 1 uninformative; 2–99 limited
 * support; 100–9,999 moderate; 10,000–999,999 strong; 1,000,000 and more very strong.
 */
const SWGDAM_2018: VerbalScale = {
  label: 'SWGDAM 2018 recommendation (LR verbal qualifiers)',
  source: 'Recommendations of the SWGDAM Ad Hoc Working Group on Genotyping Results Reported as Likelihood Ratios, SWGDAM, 2018',
  steps: [
    { from: 1, support: 'uninformative' },
    { from: 2, support: 'limited support' },
    { from: 100, support: 'moderate support' },
    { from: 10_000, support: 'strong support' },
    { from: 1_000_000, support: 'very strong support' },
  ],
};

export const VERBAL_SCALES: Record<Exclude<VerbalScaleKey, 'none'>, VerbalScale> = { 'enfsi-2015': ENFSI_2015, 'swgdam-2018': SWGDAM_2018 };

/** The choices an administrator picks from, in order, with 'none' (no verbal equivalent printed). */
export const VERBAL_SCALE_OPTIONS: readonly { key: VerbalScaleKey; label: string }[] = [
  ...Object.entries(VERBAL_SCALES).map(([key, s]) => ({ key: key as VerbalScaleKey, label: s.label })),
  { key: 'none', label: 'None (the LR alone)' },
];

export interface VerbalEquivalent {
  /** The scale's words, e.g. "very strong support". */
  support: string;
  /** Which proposition the findings support: the first (LR ≥ 1), the alternative (LR < 1), or neither (the lowest step). */
  favours: 'first' | 'alternative' | 'neither';
  /** The sentence a report prints, the propositions named as given. */
  sentence: string;
  /** The scale's source, for the report's references. */
  source: string;
}

/**
 * The LR's verbal equivalent on a scale, or null for the scale 'none', an unknown key, an LR of 0 (an
 * exclusion, which no scale words) or a value that is not a number.
 */
export function verbalEquivalent(key: string, lr: number, first = 'the first proposition', alternative = 'the alternative'): VerbalEquivalent | null {
  const scale = VERBAL_SCALES[key as keyof typeof VERBAL_SCALES];
  if (!scale || !(lr > 0)) return null;
  const strength = lr >= 1 ? lr : 1 / lr;
  let step = scale.steps[0]!;
  for (const s of scale.steps) if (strength >= s.from) step = s;
  if (step === scale.steps[0]) {
    return { support: step.support, favours: 'neither', sentence: `The findings are ${step.support === 'no support' ? 'uninformative' : step.support}: they support neither proposition over the other.`, source: scale.source };
  }
  const [favoured, other] = lr >= 1 ? [first, alternative] : [alternative, first];
  return { support: step.support, favours: lr >= 1 ? 'first' : 'alternative', sentence: `The findings provide ${step.support} for ${favoured} rather than ${other}.`, source: scale.source };
}
