import { ReportSettings, ReportSettingsChange } from '../../../core/schemas/report-settings';
import { organizationSettingRoutes } from './organization-setting-routes';

/** An organization's report settings (issue 18): the verbal scale its hit and calculator PDFs state each LR with. */
export const reportSettingsRoutes = organizationSettingRoutes({
  path: 'report-settings',
  key: 'verbalScale',
  read: ReportSettings,
  change: ReportSettingsChange,
  summary: {
    get: 'An organization’s report settings (the verbal scale of its reported LRs)',
    put: 'Choose the verbal scale an organization’s reports state each LR with: enfsi-2015 (the default), swgdam-2018 or none',
  },
});
