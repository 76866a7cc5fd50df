// GeneMapper runs carry the allelic ladder and the amplification controls beside the casework samples
// (Coble sample.csv: Ladder-ID, NEG031610CMG-ID1, POS031610CMG-ID1; LabRetriever: C+.POS.AMP.CTRL.).
// They are run checks, not profiles of anyone in the case.

/** Why a sample is a run check rather than a profile, as the import screen lists it. */
export type ControlReason = 'allelic ladder' | 'positive control' | 'negative control' | 'reagent blank' | 'control';

/** Words that make a sample a control wherever they stand in its name: CTRL, Control, German ktr and Kontrolle, also at
 * the end of a compound (PosCtrl, NegKtr, Negativkontrolle). */
const CONTROL_WORD = /^[a-z]{0,10}(ctrl|control|ktr|kontrolle)$/;

/** Words that say which control, wherever they stand once the name is a control (C+.POS.AMP.CTRL., NegKtr). */
const POSITIVE_WORDS = new Set(['pos', 'positive']);
const NEGATIVE_WORDS = new Set(['neg', 'negative']);
const POSITIVE_START = /^pos/;
const NEGATIVE_START = /^neg/;

/**
 * The short lab codes PC (positive control) and NC (negative control) are controls only as the whole name or with
 * a run number of one or two digits (PC, PC_01, NC-2): NC-2019-001 is a case number, PCR123 a sample.
 */
const SHORT_CODE = /^(pc|nc)(?:[\s_.-]*\d{1,2})?$/i;

/**
 * Why a sample name is an allelic ladder or a positive, negative or blank control, or null for a sample:
 * `ladder` anywhere; NTC (no-template control) anywhere; a name starting with NEG/Negative, POS/Positive or
 * Blank (NEG031610…, Pos, POS-1, Blank 2); `Reagent blank`; CTRL, Control, ktr or Kontrolle anywhere, alone or ending
 * a compound (PosCtrl, NegKtr, Negativkontrolle); PC/NC alone
 * or with a short number. Names are split into words at separators and letter/digit boundaries, so Positano,
 * Poseidon-7 and Negri-5 stay samples.
 */
export function controlReason(name: string): ControlReason | null {
  if (/ladder/i.test(name)) return 'allelic ladder';
  const short = SHORT_CODE.exec(name.trim())?.[1]?.toLowerCase();
  if (short) return short === 'pc' ? 'positive control' : 'negative control';
  // Words split at separators and at letter/digit boundaries: NEG031610CMG-ID1 → neg, 031610, cmg, id, 1.
  const words = name
    .split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
  const first = words[0] ?? '';
  if (words.includes('ntc')) return 'negative control';
  if (first === 'blank' || (words.includes('reagent') && words.includes('blank'))) return 'reagent blank';
  if (POSITIVE_WORDS.has(first)) return 'positive control';
  if (NEGATIVE_WORDS.has(first)) return 'negative control';
  const control = words.find((w) => CONTROL_WORD.test(w));
  if (control === undefined) return null;
  if (POSITIVE_START.test(control) || words.some((w) => POSITIVE_WORDS.has(w))) return 'positive control';
  if (NEGATIVE_START.test(control) || words.some((w) => NEGATIVE_WORDS.has(w))) return 'negative control';
  return 'control';
}

/** Whether a sample name is an allelic ladder or a positive, negative or blank control rather than a sample. */
export function isControlSample(name: string): boolean {
  return controlReason(name) !== null;
}
