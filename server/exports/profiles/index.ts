// Profile downloads (spec 7.1): CODIS CMF 3.2 XML and CSV.
export { CmfExportRefused, cmfProblems, defaultSubmitter, profilesToCmf, type CmfExportOptions } from './cmf';
export { CMF_LIMITS, CMF_SPECIMEN_CATEGORY, cmfSpecimenCategory } from './cmf-values';
export { profilesToCsv } from './csv';
export type { ExportableProfile } from './types';
