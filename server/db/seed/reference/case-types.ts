/** Case types a laboratory starts from (reference list `case_types`); administrators edit them. */
export const SEED_CASE_TYPES: readonly string[] = [
  'Homicide',
  'Sexual assault',
  'Assault',
  'Burglary',
  'Robbery',
  'Theft',
  'Missing person',
  'Disaster victim identification',
  'Unidentified human remains',
  'Paternity',
  'Kinship',
  'Other',
];
