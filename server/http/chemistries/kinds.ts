import type { Entity } from '../../../core/permissions';
import type { ChemistryKind } from '../../../core/schemas/chemistries';

/** The two chemistry resources of spec 7.1: where each lives, the entity guarding it, its name in messages. */
export interface ChemistryResource {
  kind: ChemistryKind;
  /** Path segment under /api. */
  path: 'ystr-chemistries' | 'autosomal-chemistries';
  entity: Extract<Entity, 'YStrChemistries' | 'AutosomalChemistries'>;
  /** For messages: "Y-STR chemistry". */
  what: string;
}

export const CHEMISTRY_RESOURCES: readonly ChemistryResource[] = [
  { kind: 'YStr', path: 'ystr-chemistries', entity: 'YStrChemistries', what: 'Y-STR chemistry' },
  { kind: 'Autosomal', path: 'autosomal-chemistries', entity: 'AutosomalChemistries', what: 'autosomal chemistry' },
];

export const resourceOf = (kind: ChemistryKind): ChemistryResource => CHEMISTRY_RESOURCES.find((r) => r.kind === kind)!;
