/** Biological sample sources a laboratory starts from (reference list `sample_sources`); administrators edit them. */
export const SEED_SAMPLE_SOURCES: readonly string[] = [
  'Blood',
  'Saliva / buccal swab',
  'Semen',
  'Vaginal swab',
  'Hair',
  'Touch DNA',
  'Bone',
  'Tooth',
  'Tissue',
  'Fingernail scrapings',
  'Cigarette butt',
  'Other',
];
