import type { ProfileKind } from '../../core/schemas/profiles';

/** The keys the upload route takes in place of a sample id (`…/profiles/autosomal/upload`). */
export type ProfileTypeKey = 'autosomal' | 'ystr';

/**
 * What a profile type of spec 2.8 is, apart from its screens: its key, its kind and how it reads. The
 * screens take this (not ProfileType, which lists them), so profile-types.ts and the screens do not import each other.
 */
export interface ProfileTypeTraits {
  key: ProfileTypeKey;
  kind: ProfileKind;
  label: string;
  /** What the import screen accepts, in the user's words. */
  importHint: string;
}
