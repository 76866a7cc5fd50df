import { ReviewSettings, ReviewSettingsInput } from '../../../core/schemas/review-settings';
import { organizationSettingRoutes } from './organization-setting-routes';

/** An organization's review settings (issue 18): four-eyes review of profiles and hits, on by default. */
export const reviewSettingsRoutes = organizationSettingRoutes({
  path: 'review-settings',
  key: 'fourEyesReview',
  read: ReviewSettings,
  change: ReviewSettingsInput,
  summary: { get: 'An organization’s review settings (four-eyes review)', put: 'Turn four-eyes review on or off for an organization (on by default)' },
});
