import type { ComponentType } from 'react';
import type { ProfileKind } from '../../core/schemas/profiles';
import { ProfileForm, type ProfileFormProps } from './profile-form';
import { ProfileImport, type ProfileImportProps } from './profile-import';
import type { ProfileTypeTraits } from './profile-type-traits';
import { ProfileView, type ProfileViewProps } from './profile-view';

export type { ProfileTypeKey } from './profile-type-traits';

/**
 * One profile type of spec 2.8 ("Profile types offered are Autosomal and Y-STR. Each has a view
 * screen, a form screen and an import screen"): its key, its kind, how it reads, and its screens.
 */
export interface ProfileType extends ProfileTypeTraits {
  view: ComponentType<ProfileViewProps>;
  form: ComponentType<ProfileFormProps>;
  import: ComponentType<ProfileImportProps>;
}

export const PROFILE_TYPES: readonly ProfileType[] = [
  {
    key: 'autosomal',
    kind: 'Autosomal',
    label: 'Autosomal',
    importHint: 'CODIS CMF 3.2/3.3 XML, a GeneMapper ID-X genotype table, or CSV (one row per sample, or one per sample and marker).',
    view: ProfileView,
    form: ProfileForm,
    import: ProfileImport,
  },
  {
    key: 'ystr',
    kind: 'YStr',
    label: 'Y-STR',
    importHint: 'CODIS CMF 3.2/3.3 XML, a GeneMapper ID-X genotype table, or CSV with one Y-STR haplotype per sample.',
    view: ProfileView,
    form: ProfileForm,
    import: ProfileImport,
  },
];

/** The profile type an upload route names (spec 2.8: none → "Not found"). */
export const profileTypeByKey = (key: string): ProfileType | undefined => PROFILE_TYPES.find((t) => t.key === key);

/** The profile type of a stored profile. */
export const profileTypeOfKind = (kind: ProfileKind): ProfileType => PROFILE_TYPES.find((t) => t.kind === kind)!;
