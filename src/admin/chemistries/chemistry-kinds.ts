import type { Entity } from '../../../core/permissions';
import type { ChemistryKind } from '../../../core/schemas/chemistries';
import type { MarkerKind } from '../../../core/schemas/markers';
import type { RouteName } from '../../app/routes';

/** One kind of chemistry as the SPA shows it: its calls, its routes and its words. */
export interface ChemistryScreens {
  kind: ChemistryKind;
  entity: Entity & ('YStrChemistries' | 'AutosomalChemistries');
  /** API path of the list; a record is `{path}/{id}`. */
  path: '/api/ystr-chemistries' | '/api/autosomal-chemistries';
  table: RouteName & ('YStrChemistries' | 'AutosomalChemistries');
  edit: RouteName & ('YStrChemistriesEdit' | 'AutosomalChemistriesEdit');
  /** Singular, as in "New Y-STR chemistry". */
  what: string;
  /** The form's heading for a stored record. */
  title: string;
  /** Markers offered for the configuration: a Y-STR kit takes Y-STR markers only, an autosomal kit any marker. */
  markerKind?: MarkerKind;
  /** For "No Y-STR marker named …". */
  choiceNoun: string;
}

export const Y_STR_CHEMISTRIES: ChemistryScreens = {
  kind: 'YStr',
  entity: 'YStrChemistries',
  path: '/api/ystr-chemistries',
  table: 'YStrChemistries',
  edit: 'YStrChemistriesEdit',
  what: 'Y-STR chemistry',
  title: 'Y-STR chemistry',
  markerKind: 'YStr',
  choiceNoun: 'Y-STR marker',
};

export const AUTOSOMAL_CHEMISTRIES: ChemistryScreens = {
  kind: 'Autosomal',
  entity: 'AutosomalChemistries',
  path: '/api/autosomal-chemistries',
  table: 'AutosomalChemistries',
  edit: 'AutosomalChemistriesEdit',
  what: 'autosomal chemistry',
  title: 'Autosomal chemistry',
  choiceNoun: 'marker',
};

export const CHEMISTRY_SCREENS: readonly ChemistryScreens[] = [Y_STR_CHEMISTRIES, AUTOSOMAL_CHEMISTRIES];
