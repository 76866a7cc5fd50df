import type { FeatureArea } from '../app/feature-area';
import { accessGroupsArea } from './access-groups/area';
import { auditArea } from './audit/area';
import { analysisGroupsArea } from './analysis-groups/area';
import { chemistriesArea } from './chemistries/area';
import { citationsArea } from './citations/area';
import { emailTemplatesArea } from './email-templates/area';
import { markersArea } from './markers/area';
import { networkArea } from './network/area';
import { populationsArea } from './populations/area';
import { referenceListsArea } from './reference-lists/area';
import { searchRulesArea } from './search-rules/area';
import { settingsTextsArea } from './settings-texts/area';
import { uploadEligibilityArea } from './upload-eligibility/area';
import { usersArea } from './users/area';

/** Every administration area of spec 2.7, plus About us and Contact (2.6). */
export const ADMIN_AREAS: readonly FeatureArea[] = [
  referenceListsArea,
  usersArea,
  accessGroupsArea,
  markersArea,
  chemistriesArea,
  populationsArea,
  emailTemplatesArea,
  citationsArea,
  analysisGroupsArea,
  searchRulesArea,
  uploadEligibilityArea,
  settingsTextsArea,
  networkArea,
  auditArea,
];
