// Allele designations and the rules a profile's markers follow (GENETICS.md "Profiles and alleles"),
// shared by the marker entry form, the profile API and the import parsers.
export { isComparable, parseAllele, repeatValue, type AlleleKind, type ParsedAllele } from './allele';
export { compareAlleles, normaliseMarkerAlleles } from './order';
export {
  isAmelogenin,
  MAX_MIXTURE,
  MAX_MULTI_COPY,
  MAX_SINGLE_SOURCE,
  validateMarkerAlleles,
  type AlleleRulesMarker,
  type AlleleRulesOptions,
} from './marker-rules';
