import type { Entity, Verb } from '../../../core/permissions';

/** How the role form names each entity of core/permissions.ts (the screens' own words). */
export const ENTITY_LABELS: Record<Entity, string> = {
  Organizations: 'Organizations',
  Users: 'Users',
  AccessGroups: 'Roles',
  CaseTypes: 'Case types',
  SampleSources: 'Sample sources',
  Laboratories: 'Laboratories',
  Markers: 'Markers',
  YStrChemistries: 'Y-STR chemistries',
  AutosomalChemistries: 'Autosomal chemistries',
  Populations: 'Populations',
  Cases: 'Cases',
  Profiles: 'Profiles',
  Hits: 'Hits',
  Analyses: 'Analyses',
  SearchRules: 'Search rules',
  EmailTemplates: 'Email templates',
  Citations: 'Citations',
  TaskRequests: 'Task requests',
  Settings: 'About us and Contact',
};

export const VERB_LABELS: Record<Verb, string> = {
  Read: 'Read',
  Add: 'Add',
  Edit: 'Edit',
  Delete: 'Delete',
  Publish: 'Publish',
  Reset: 'Reset',
  ViewAudit: 'View audit',
  ChangeSettings: 'Change settings',
};
