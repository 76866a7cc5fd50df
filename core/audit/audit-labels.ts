/**
 * The audit trail's label dictionary (issue 18): what the screens, the CSV and the PDF call a record
 * type and a field, instead of the type names (`PhysicalItem`) and field names (`reviewedAt`) the trail
 * stores. One place, so the SPA and the server's exports read the same words.
 */

/** Record types as the trail stores them (cases and profiles write type names, administration its path segment). */
const RECORD_TYPES: Record<string, string> = {
  Case: 'Case',
  InvolvedParty: 'Involved party',
  PhysicalItem: 'Physical item',
  AgencyFile: 'Agency file',
  Profile: 'Profile',
  Hit: 'Hit',
  Family: 'Family',
  TaskRequest: 'Task request',
  AccessToken: 'Access token',
  FamilialSearch: 'Familial search',
  KeyboardSearch: 'Keyboard search',
  MixtureSearch: 'Mixture search',
  SelfComparison: 'Self-comparison',
  ProfileImport: 'Profile import',
  AuditExport: 'Audit trail export',
  users: 'User',
  'access-groups': 'Role',
  organizations: 'Organization',
  'case-types': 'Case type',
  'sample-sources': 'Sample source',
  laboratories: 'Laboratory',
  markers: 'Marker',
  'ystr-chemistries': 'Y-STR chemistry',
  'autosomal-chemistries': 'Autosomal chemistry',
  chemistries: 'Chemistry',
  populations: 'Population',
  'email-templates': 'Email template',
  citations: 'Citation',
  settings: 'Settings text',
  'analysis-groups': 'Analysis group',
  analyses: 'Analysis',
  'search-rules': 'Search rule',
};

/**
 * Fields as the screens label them. A field missing here reads as its name split into words
 * (`collectionPlace` → "Collection place"), never as the raw name.
 */
const FIELDS: Record<string, string> = {
  id: 'Id',
  caseNumber: 'Case number',
  caseId: 'Case',
  caseTypeId: 'Case type',
  caseTypeName: 'Case type',
  organizationId: 'Organization',
  organizationName: 'Organization',
  assignedUsers: 'Assigned users',
  assignedUserIds: 'Assigned users',
  status: 'Status',
  notes: 'Notes',
  profileCount: 'Profiles',
  createdAt: 'Created',
  updatedAt: 'Updated',
  title: 'Title',
  description: 'Description',
  role: 'Role',
  name: 'Name',
  identifiers: 'Identifiers',
  itemId: 'Item id',
  collectedAt: 'Collected on',
  collectionPlace: 'Collection place',
  collectedBy: 'Collected by',
  fileName: 'File name',
  fileSize: 'File size (bytes)',
  contentType: 'File type',
  uploadedBy: 'Uploaded by',
  uploadedAt: 'Uploaded',
  profileId: 'Profile',
  kind: 'Type',
  chemistryId: 'Chemistry',
  chemistryName: 'Chemistry',
  sampleType: 'Sample type',
  sampleSourceId: 'Source',
  sampleSourceName: 'Source',
  physicalItemId: 'Item',
  physicalItemName: 'Item',
  laboratoryId: 'Source laboratory',
  laboratoryName: 'Source laboratory',
  physicalItem: 'Item',
  involvedParty: 'Taken from',
  involvedPartyId: 'Taken from',
  involvedPartyName: 'Taken from',
  comments: 'Comments',
  source: 'Came in',
  reviewComments: 'Review comments',
  reviewedAt: 'Reviewed at',
  reviewedBy: 'Reviewed by',
  enteredBy: 'Entered by',
  enteredByName: 'Entered by',
  userId: 'User',
  email: 'E-mail',
  firstName: 'First name',
  lastName: 'Last name',
  scope: 'Scope',
  accessGroupId: 'Role',
  accessGroupName: 'Role',
  lockedAt: 'Locked',
  receiveNotifications: 'Receives notifications',
  organizationIds: 'Organizations',
  isAdmin: 'Administrator',
  analysisId: 'Analysis',
  analysisName: 'Analysis',
  analysisGroupId: 'Analysis group',
  populationId: 'Population',
  populationIds: 'Populations',
  searchRuleId: 'Search rule',
  familyId: 'Family',
  threshold: 'Threshold',
  assignedTo: 'Assigned to',
  dueDate: 'Due date',
  expiresAt: 'Expires',
  revokedAt: 'Revoked',
  lastUsedAt: 'Last used',
  fourEyesReview: 'Four-eyes review',
  verbalScale: 'Verbal scale',
  hook: 'Sent when',
  subject: 'Subject',
  body: 'Text',
  aliases: 'Aliases',
  multiCopy: 'Multi-copy',
  reason: 'Reason',
  format: 'Format',
  rows: 'Rows',
  verification: 'Verification',
  from: 'From',
  to: 'To',
  entity: 'Record type',
  timeZone: 'Time zone',
};

/** "collectionPlace" → "Collection place", "access-groups" → "Access groups". */
export function humanize(name: string): string {
  const words = name
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a reader calls a record type: `PhysicalItem` → "Physical item", `markers` → "Marker". */
export function recordTypeLabel(entity: string): string {
  return RECORD_TYPES[entity] ?? humanize(entity);
}

/** The record types the trail knows, for a period export's choice: stored name and label. */
export const AUDIT_RECORD_TYPES: readonly { entity: string; label: string }[] = Object.entries(RECORD_TYPES)
  .map(([entity, label]) => ({ entity, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

/** What the screens call a field: `reviewedAt` → "Reviewed at", `physicalItemId` → "Item"; an id by what it names (`taskOwnerId` → "Task owner"). */
export function fieldLabel(field: string): string {
  return FIELDS[field] ?? humanize(/^.+[a-z]Ids?$/.test(field) ? field.replace(/Id(s?)$/, '$1') : field);
}
