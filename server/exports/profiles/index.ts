// Profile downloads (spec 7.1): CODIS CMF 3.2 XML and CSV.
export { profilesToCmf, type CmfExportOptions } from './cmf';
export { profilesToCsv } from './csv';
export type { ExportableProfile } from './types';
