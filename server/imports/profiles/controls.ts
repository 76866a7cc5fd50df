// GeneMapper runs carry the allelic ladder and the amplification controls beside the casework samples
// (Coble sample.csv: Ladder-ID, NEG031610CMG-ID1, POS031610CMG-ID1; LabRetriever: C+.POS.AMP.CTRL.).
// They are run checks, not profiles of anyone in the case.

/** Words that make a sample a control wherever they stand in its name. */
const CONTROL_WORDS = new Set(['ladder', 'ctrl', 'control', 'ntc']);

/** Words that make a sample a control when its name starts with them (NEG031610…, POS-1, Blank 2). */
const CONTROL_PREFIXES = new Set(['neg', 'negative', 'pos', 'positive', 'blank']);

/** Whether a sample name is an allelic ladder or a positive, negative or blank control rather than a sample. */
export function isControlSample(name: string): boolean {
  if (/ladder/i.test(name)) return true;
  // Words split at separators and at letter/digit boundaries: NEG031610CMG-ID1 → neg, 031610, cmg, id, 1.
  const words = name
    .split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
  return words.some((w) => CONTROL_WORDS.has(w)) || CONTROL_PREFIXES.has(words[0] ?? '');
}
