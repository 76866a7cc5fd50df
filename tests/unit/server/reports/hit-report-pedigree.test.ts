/**
 * Issue 16 in the hit PDF: a family's hit prints its hypotheses (with the analysis's pedigree, a persons table and the
 * drawn diagram), the mutation models, per marker L(H1), L(H2), LR and verdict, and the markers needing a mutation.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HitView } from '../../../../core/schemas/hits';
import { hitReportDocument } from '../../../../server/reports/hit-report';
import { renderPdf } from '../../../../server/reports/pdf';
// The story fixtures' families and figures (examples only), so stories and this report show the same hit.
import { MOTHER_AND_SISTER } from '../../../../stories/cases/family-fixtures';
import { pedigreeMarker, SEED_MODELS } from '../../../../stories/hits/pedigree-hit-fixtures';
import { expectNoExponentForm } from '../../../helpers/exponent-form';

const CASE = { caseId: '7b4d8e9f-0a1b-4c23-9de5-f6a7b8c9d0e1', caseNumber: 'MP-2026-7', organizationId: '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5' };
const REMAINS = { caseId: '8c5e9f0a-1b2c-4d34-8ef0-a7b8c9d0e1f2', caseNumber: 'UHR-2026-1', organizationId: CASE.organizationId };

const MODELS = SEED_MODELS;
const marker = (name: string, genotypes: string[][], h1: number, h2: number, verdict: Parameters<typeof pedigreeMarker>[3]) => pedigreeMarker(name, genotypes, [h1, h2], verdict);

const MARKERS = [
  marker('D3S1358', [['15', '17'], ['16', '17'], ['15', '16']], 3.1e-7, 6.2e-5, 'needs a mutation'),
  marker('FGA', [['21', '24'], ['20', '24'], ['21', '20']], 2e-4, 5e-5, 'consistent'),
];

const VIEW: HitView = {
  hit: {
    id: '5e2b6c7d-8e9f-4a01-b2c3-d4e5f6a7b8c9',
    version: 1,
    organizationId: CASE.organizationId,
    status: 'pending',
    date: '2026-03-01T09:00:00.000Z',
    analysisId: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21',
    analysisName: 'Mother and full sister',
    populationId: '4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e',
    populationName: 'FBI 2015 Caucasian',
    combinedIndex: 1.2e6,
    markerCount: 2,
    nonExclusionMarkerCount: null,
    probability: '99.9999%',
    profiles: [
      { role: 'Missing person', position: 0, profileId: '0a7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4', sampleName: 'REMAINS-MUTANT', ...REMAINS, enteredById: null },
      { role: 'Mother', position: 1, profileId: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5', sampleName: 'MOTHER', ...CASE, enteredById: null },
      { role: 'Full sister', position: 2, profileId: '2c9e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6', sampleName: 'SISTER', ...CASE, enteredById: null },
    ],
    searchRuleId: null,
    searchRuleName: null,
    familyId: '0b0b0b0b-0000-4000-8000-00000000f001',
    familyName: 'Family of the missing son',
    matchKind: 'kinship',
    expectedChanceHits: null,
    pValue: null,
    synthetic: false,
    figures: null,
    comments: '',
    updatedAt: '2026-03-01T09:00:00.000Z',
  },
  analysis: { id: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21', name: 'Mother and full sister', label: 'Missing person tested against the mother and a full sister', analysisGroupId: '3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d', kind: 'Pedigree', profileKind: 'Autosomal' },
  population: { id: '4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e', name: 'FBI 2015 Caucasian', source: 'fbi2015.csv' },
  markers: MARKERS,
  constants: [],
  evaluation: null,
  evaluationError: null,
  history: [{ from: null, to: 'pending', userId: null, userName: 'Family search', at: '2026-03-01T09:00:00.000Z', comments: '', notified: false }],
  fourEyesReview: true,
};

const PEDIGREE = MOTHER_AND_SISTER;

const CONTEXT = { organizationName: 'Oslo Lab', preparedBy: 'Rita Reviewer', preparedAt: new Date('2026-03-02T10:00:00Z'), citations: [] };

describe('the PDF of a family’s hit', () => {
  it('prints the mutation model, per marker L(H1), L(H2), LR and verdict, and the marker needing a mutation', () => {
    const text = JSON.stringify(hitReportDocument(VIEW, { ...CONTEXT, pedigree: PEDIGREE }));
    expect(text).toContain(`"Every marker: ${MODELS}"`);
    for (const header of ['L(H1)', 'L(H2)', 'LR', 'Verdict']) expect(text).toContain(`{"text":"${header}","bold":true}`);
    // D3S1358: L(H1) 3.1e-7, L(H2) 6.2e-5, LR = 3.1e-7 / 6.2e-5 = 0.005, needing a mutation (marked); never 3.10e-7.
    expect(text).toContain('"3.10 × 10⁻⁷","6.20 × 10⁻⁵","0.005",{"text":"needs a mutation","bold":true');
    expect(text).toContain('"2.00 × 10⁻⁴","5.00 × 10⁻⁵","4","consistent"');
    expectNoExponentForm(text);
    expect(text).toContain('[{"text":"Markers needing a mutation: ","bold":true},"D3S1358"]');
    expect(text).toContain('{"text":"Found by the search of the missing-person family: ","bold":true},"Family of the missing son"');
    // No formula table's columns for a pedigree hit.
    expect(text).not.toContain('Formulae used');
    expect(text).not.toContain('{"text":"Pattern","bold":true}');
  });

  it('draws the family’s pedigree with a table of its persons, the remains typed as the missing person', () => {
    const document = hitReportDocument(VIEW, { ...CONTEXT, pedigree: PEDIGREE });
    const text = JSON.stringify(document);
    expect(text).toContain('H1: the pedigree as drawn, Missing person (REMAINS-MUTANT) the tested person.');
    expect(text).toContain('H2: Missing person (REMAINS-MUTANT) is unrelated to the others; the rest of the pedigree as drawn.');
    expect(text).toContain('"svg":"<svg');
    expect(text).toContain('["Missing person","male","Father","Mother","REMAINS-MUTANT (case UHR-2026-1)","yes"]');
    expect(text).toContain('["Full sister","female","Father","Mother","SISTER (case MP-2026-7)",""]');
  });

  it('states the hypotheses in words when the analysis’s pedigree is not given', () => {
    const text = JSON.stringify(hitReportDocument(VIEW, CONTEXT));
    expect(text).toContain('[{"text":"H1:","bold":true},"REMAINS-MUTANT is the Missing person of the pedigree of Mother and full sister, with Mother MOTHER, Full sister SISTER"]');
    expect(text).toContain('[{"text":"H2:","bold":true},"REMAINS-MUTANT is unrelated to Mother MOTHER, Full sister SISTER"]');
    expect(text).not.toContain('<svg');
  });

  it('renders in the PDF fonts', async () => {
    const pdf = await renderPdf(hitReportDocument(VIEW, { ...CONTEXT, pedigree: PEDIGREE }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    if (process.env.HIT_PDF_OUT) writeFileSync(process.env.HIT_PDF_OUT, pdf);
  });
});
