/**
 * The terms a user accepts before first using Locus (POST /api/accept-licenses). Kept as data so
 * the page, tests and stories show the same words; a change of terms means a new version.
 */
export const LICENCE_VERSION = '1.0';

export const LICENCE_TITLE = 'Locus terms of use';

export interface LicenceSection {
  heading: string;
  paragraphs: readonly string[];
}

export const LICENCE_SECTIONS: readonly LicenceSection[] = [
  {
    heading: '1. Who may use Locus',
    paragraphs: [
      'Locus is provided to your laboratory for forensic DNA casework. You may use it only for the work your laboratory has assigned to you, and only with the account issued to you. Do not share your sign-in or let anyone work under your name.',
    ],
  },
  {
    heading: '2. Confidential and personal data',
    paragraphs: [
      'Cases, DNA profiles, hits and the people involved in them are confidential and often sensitive personal data. Look only at records you need for your work, do not copy them out of Locus except through its own reports and downloads, and handle every download as your laboratory’s procedures require.',
    ],
  },
  {
    heading: '3. Your actions are recorded',
    paragraphs: [
      'Every change you make, and the review, publication or rejection of every hit, is kept in an audit trail with your name and the time. The audit trail cannot be edited or deleted.',
    ],
  },
  {
    heading: '4. Results need qualified review',
    paragraphs: [
      'Matches and statistics produced by Locus support the judgement of qualified staff; they do not replace it. A hit must be reviewed under your laboratory’s procedures before it is published or reported, and its figures must be checked against the population data and analysis it names.',
    ],
  },
  {
    heading: '5. Reporting problems',
    paragraphs: [
      'If you suspect that an account has been misused, that data has been disclosed, or that a result is wrong, stop and tell your administrator at once.',
    ],
  },
  {
    heading: '6. Acceptance',
    paragraphs: [
      'By selecting “I accept” you agree to these terms. Your acceptance is recorded with your account. If you do not agree, sign out and contact your administrator.',
    ],
  },
];
