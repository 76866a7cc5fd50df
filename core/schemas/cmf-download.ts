import { z } from 'zod';
import { CMF_SPECIMEN_CATEGORIES } from '../cmf-categories';
import { CMF_LIMITS } from '../cmf-limits';
import { requiredChoice, requiredText } from './named-record';

/** CMF 3.2 CODISUserType: SUBMITBYUSERID holds 1 to 20 characters. */
export const CMF_SUBMITTER_LENGTH = 20;

/**
 * What a profile's CMF download may choose (GET /api/profiles/{id}/download): the same schema checks the query on the
 * server and the dialog's form in the SPA. A Reference or a long sample name cannot go out as it stands.
 */
export const CmfDownloadChoices = z.object({
  specimenCategory: requiredChoice(CMF_SPECIMEN_CATEGORIES, 'Not a CODIS specimen category').describe('CMF SPECIMENCATEGORY to write instead of the one of the sample type (a Reference has none)'),
  specimenId: requiredText(CMF_LIMITS.specimenIdLength).describe('CMF SPECIMENID to write instead of the sample name (at most 24 characters)'),
  submitter: requiredText(CMF_SUBMITTER_LENGTH).describe("CMF SUBMITBYUSERID (at most 20 characters); when not given the user's e-mail address, or its part before the @ when the address is longer"),
});
export type CmfDownloadChoices = z.infer<typeof CmfDownloadChoices>;

const length = (text: string) => [...text].length;

/**
 * The SUBMITBYUSERID a user's export names when the request gives none (CMF 3.2 CODISUserType): the e-mail address,
 * or where it is longer than CMF 3.2 allows its part before the @ (a CODIS user id is a short name); a longer one is
 * refused by the writer, never cut.
 */
export function defaultSubmitter(email: string): string {
  if (length(email) <= CMF_SUBMITTER_LENGTH) return email;
  const local = email.split('@')[0] ?? '';
  return local.length > 0 && length(local) <= CMF_SUBMITTER_LENGTH ? local : email;
}
