/**
 * Issue 18: the hit and calculator PDFs a court reads. Page 1 leads with the conclusion (hypotheses, the LR per
 * population in words on the laboratory's verbal scale, "1 in X" for identity, the analysis and its sources);
 * then the profiles with kit, entered by and approved by, parties and items, the per-marker table with the
 * frequencies used and N, the formulae once, the parameters, the decisions; "Page n of m" and a signature block.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult, MarkerResult } from '../../../../core/schemas/analyses';
import type { HitView } from '../../../../core/schemas/hits';
import { analysisResultDocument } from '../../../../server/reports/analysis-report';
import { hitReportDocument } from '../../../../server/reports/hit-report';
import { renderPdf } from '../../../../server/reports/pdf';
import type { PopulationFacts, ReportFacts } from '../../../../server/reports/report-facts';
import { pdfToText } from '../../../helpers/pdf-text';
import { expectNoExponentForm } from '../../../helpers/exponent-form';

const ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const CASE = { caseId: '7b4d8e9f-0a1b-4c23-9de5-f6a7b8c9d0e1', caseNumber: 'CR-2026-14', organizationId: ORG };
const POPULATION = { id: '4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e', name: 'FBI 2015 Caucasian', source: 'Moretti et al. (2016)' };
const EVIDENCE = '0a7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4';
const REFERENCE = '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5';

const FREQUENCIES: Record<string, Record<string, number>> = { D3S1358: { '15': 0.246, '17': 0.212 }, vWA: { '16': 0.201 } };
const population: PopulationFacts = {
  id: POPULATION.id,
  name: POPULATION.name,
  frequency: (marker, allele) => FREQUENCIES[marker]?.[allele] ?? 0.0025,
  sampleSize: (marker) => (marker === 'D3S1358' ? 1036 : null),
  observed: (marker, allele) => FREQUENCIES[marker]?.[allele] !== undefined,
};

const FACTS: ReportFacts = {
  organizationName: 'Oslo Lab',
  verbalScale: 'enfsi-2015',
  populations: new Map([[POPULATION.id, population]]),
  profiles: [
    {
      profileId: EVIDENCE,
      sampleName: 'EVIDENCE-1',
      caseNumber: CASE.caseNumber,
      kind: 'Autosomal',
      kit: 'GlobalFiler',
      sampleType: 'Forensic Unknown',
      status: 'approved',
      enteredBy: 'Ana Analyst',
      enteredAt: new Date('2026-02-27T08:00:00Z'),
      reviewedBy: 'Rita Reviewer',
      reviewedAt: new Date('2026-02-28T09:30:00Z'),
      party: null,
      item: { itemId: 'ITEM-7', description: 'Knife handle swab', collectedAt: new Date('2026-02-20T00:00:00Z'), collectionPlace: 'Storgata 1, Oslo', collectedBy: 'Officer Berg' },
    },
    {
      profileId: REFERENCE,
      sampleName: 'REFERENCE-1',
      caseNumber: CASE.caseNumber,
      kind: 'Autosomal',
      kit: 'PowerPlex Fusion 6C',
      sampleType: 'Suspect, Known',
      status: 'approved',
      enteredBy: 'Ana Analyst',
      enteredAt: new Date('2026-02-27T08:05:00Z'),
      reviewedBy: 'Rita Reviewer',
      reviewedAt: new Date('2026-02-28T09:31:00Z'),
      party: { title: 'Suspect 1', role: 'suspect', name: 'Ola Nordmann', identifiers: [{ kind: 'national-id', value: '01019912345' }] },
      item: null,
    },
  ],
};

const marker = (name: string, genotypes: string[][], pattern: string, expression: string, value: number): MarkerResult => ({
  marker: name,
  genotypes,
  pattern,
  expression,
  latex: null,
  value,
  log10: Math.log10(value),
  isExclusion: null,
  notEvaluated: null,
});

const MARKERS = [
  marker('D3S1358', [['15', '17'], ['15', '17']], 'PQ-PQ', '(1+theta)*(1+2*theta)/(2*(theta+(1-theta)*p)*(theta+(1-theta)*q))', 11.76),
  marker('vWA', [['16'], ['16']], 'PP-PP', '(1+theta)*(1+2*theta)/((2*theta+(1-theta)*p)*(3*theta+(1-theta)*p))', 21.3),
  marker('FGA', [['21', '24'], ['21', '24']], 'PQ-PQ', '(1+theta)*(1+2*theta)/(2*(theta+(1-theta)*p)*(theta+(1-theta)*q))', 1.2e6),
];

const identityHit = (overrides: Partial<HitView['hit']> = {}): HitView =>
  ({
  hit: {
    id: '5e2b6c7d-8e9f-4a01-b2c3-d4e5f6a7b8c9',
    version: 3,
    organizationId: ORG,
    status: 'published',
    date: '2026-03-01T09:00:00.000Z',
    analysisId: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21',
    analysisName: 'Identity',
    populationId: POPULATION.id,
    populationName: POPULATION.name,
    combinedIndex: 1.18e9,
    markerCount: 3,
    nonExclusionMarkerCount: null,
    probability: '99.99% (CI 1.18e+9)',
    profiles: [
      { role: 'Evidence', position: 0, profileId: EVIDENCE, sampleName: 'EVIDENCE-1', ...CASE } as HitView['hit']['profiles'][number],
      { role: 'Reference', position: 1, profileId: REFERENCE, sampleName: 'REFERENCE-1', ...CASE } as HitView['hit']['profiles'][number],
    ],
    searchRuleId: null,
    searchRuleName: 'Forensic unknowns against suspects',
    familyId: null,
    familyName: null,
    matchKind: 'identity',
    expectedChanceHits: null,
    pValue: null,
    synthetic: false,
    figures: null,
    comments: 'Confirmed against the reference',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  },
  analysis: { id: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21', name: 'Identity', label: 'Same source (NRC II 4.10, θ = 0.01)', analysisGroupId: '3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d', kind: 'Computational', profileKind: 'Autosomal' },
  population: POPULATION,
  markers: MARKERS,
  constants: [{ name: 'theta', notation: '\\theta', value: 0.01 }],
  evaluation: null,
  evaluationError: null,
  history: [
    { from: null, to: 'pending', userId: null, userName: 'Database search', at: '2026-03-01T09:00:00.000Z', comments: '', notified: false },
    { from: 'pending', to: 'published', userId: '8d3e4f5a-6b7c-4d8e-9f01-a2b3c4d5e6f7', userName: 'Rita Reviewer', at: '2026-03-02T10:00:00.000Z', comments: 'Confirmed against the reference', notified: true },
  ],
  }) as HitView;

const CONTEXT = { organizationName: 'Oslo Lab', preparedBy: 'Peter Printer', preparedAt: new Date('2026-03-03T11:00:00Z'), citations: ['NRC II (1996)'], facts: FACTS };

describe('the hit PDF', () => {
  it('leads page 1 with the hypotheses, the LR in words with its verbal equivalent, 1 in X, and the analysis with its sources', async () => {
    const pdf = await renderPdf(hitReportDocument(identityHit(), CONTEXT));
    const page1 = pdfToText(pdf, { first: 1, last: 1 });
    const flat = page1.replace(/\s+/g, ' ');
    expect(flat).toContain('Conclusion');
    expect(flat).toContain('H1: EVIDENCE-1 (Evidence) and REFERENCE-1 (Reference) come from the same person');
    expect(flat).toContain('H2: EVIDENCE-1 (Evidence) and REFERENCE-1 (Reference) come from two unrelated persons');
    expect(flat).toContain('The DNA results are 1.2 × 10⁹ times more likely if EVIDENCE-1 (Evidence) and REFERENCE-1 (Reference) come from the same person than if');
    expect(flat).toContain('is 1 in 1.2 × 10⁹');
    expect(flat).toContain('The findings provide extremely strong support for “H1” rather than “H2”.');
    expect(flat).toContain('Same source (NRC II 4.10, θ = 0.01)');
    expect(flat).toContain('FBI 2015 Caucasian — Moretti et al. (2016)');
    expect(flat).toContain('ENFSI Guideline for Evaluative Reporting');
    // The header on every page, the footer's page count.
    expect(flat).toContain('Oslo Lab');
    expect(flat).toContain('Case CR-2026-14 · Hit 5e2b6c7d-8e9f-4a01-b2c3-d4e5f6a7b8c9');
    expect(flat).toMatch(/Page 1 of \d/);
    // The conclusion comes before the per-marker table.
    expect(flat.indexOf('times more likely')).toBeLessThan(flat.indexOf('Per marker') === -1 ? Infinity : flat.indexOf('Per marker'));
  });

  it('prints each profile’s kit, who entered and who approved it, the party and the item, frequencies with N, the formulae once, θ, decisions and the signature block', async () => {
    const pdf = await renderPdf(hitReportDocument(identityHit(), CONTEXT));
    if (process.env.REPORT_PDF_DIR) writeFileSync(path.join(process.env.REPORT_PDF_DIR, 'identity-hit.pdf'), pdf);
    const text = pdfToText(pdf);
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of ['GlobalFiler', 'PowerPlex', 'Ana Analyst', 'Rita Reviewer', '2026-02-28 09:30 UTC', 'Suspect: Ola Nordmann', 'National id 01019912345', 'ITEM-7 — Knife handle swab', 'Collected 2026-02-20, Storgata 1, Oslo, by Officer Berg']) {
      expect(flat).toContain(expected);
    }
    // Frequencies as used (the minimum where the population lacks the allele) and the marker's N.
    expect(flat).toMatch(/D3S1358 +15, 17 +15, 17 +15: 0\.246 +1,036 +PQ-PQ +11\.8 17: 0\.212/);
    expect(flat).toContain('21: 0.0025 (min.)');
    // One formula per pattern, with θ, not once per marker.
    expect(flat.match(/\(1\+θ\) × \(1\+2 × θ\)\/\(2 × /g)).toHaveLength(1);
    expect(flat.match(/PQ-PQ/g)).toHaveLength(3); // two marker rows and the formulae table's one row
    expect(flat).toContain('θ 0.01');
    expect(flat).toContain('Pending → Published');
    expect(flat).toContain('Confirmed against the reference');
    expect(flat).toMatch(/Prepared by .*Name: Peter Printer/);
    expect(flat).toMatch(/Reviewed by .*Name: Rita Reviewer/);
    expect(flat).toContain('Signature:');
    expect(flat).toMatch(/Page (\d) of \1/);
    expectNoExponentForm(text);
  });

  it('never breaks a sample or case id such as 0301-E1 inside a narrow column (issue 30)', async () => {
    const named = (name: string, caseNumber: string) => ({ sampleName: name, caseNumber });
    const view = identityHit({
      profiles: identityHit().hit.profiles.map((p, i) => ({ ...p, ...named(i === 0 ? '0301-E1' : '0301-R2', '2026-0301-HOM') })),
    });
    const facts: ReportFacts = {
      ...FACTS,
      profiles: FACTS.profiles.map((f, i) => ({ ...f, ...named(i === 0 ? '0301-E1' : '0301-R2', '2026-0301-HOM'), sampleType: 'Forensic, Unknown (swab of a knife handle)', enteredBy: 'Anna-Kristine Analyst-Johansen', reviewedBy: 'Rita-Marie Reviewer-Olsen' })),
    };
    const text = pdfToText(await renderPdf(hitReportDocument(view, { ...CONTEXT, facts })));
    // Each id whole on its row of the profiles table and of the parties and items table.
    expect(text).toMatch(/^Evidence +0301-E1 +2026-0301-HOM +GlobalFiler/m);
    expect(text).toMatch(/^Reference +0301-R2 +2026-0301-HOM +PowerPlex/m);
    expect(text).toMatch(/^Evidence +0301-E1 +— +ITEM-7/m);
  });

  it('prints κ for a kinship analysis, and the verbal scale the laboratory chose', async () => {
    const view: HitView = {
      ...identityHit({ matchKind: 'kinship', combinedIndex: 420 }),
      analysis: { ...identityHit().analysis, name: 'Full siblings', label: 'Full siblings (κ = ¼, ½, ¼)' },
      constants: [
        { name: 'kappa0', notation: '\\kappa_0', value: 0.25 },
        { name: 'kappa1', notation: '\\kappa_1', value: 0.5 },
      ],
      markers: [marker('D3S1358', [['15', '17'], ['15', '17']], 'PQ-PQ', 'kappa0 + kappa1*(p+q)/(4*p*q)', 420)],
    };
    const pdf = await renderPdf(hitReportDocument(view, { ...CONTEXT, facts: { ...FACTS, verbalScale: 'swgdam-2018' } }));
    if (process.env.REPORT_PDF_DIR) writeFileSync(path.join(process.env.REPORT_PDF_DIR, 'kinship-hit.pdf'), pdf);
    const text = pdfToText(pdf);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Full siblings (κ = ¼, ½, ¼)');
    expect(flat).toContain('κ0 + κ1 × (p+q)/(4 × p × q)');
    expect(flat).toContain('The DNA results are 420 times more likely if EVIDENCE-1 (Evidence) and REFERENCE-1 (Reference) are related as Full siblings than if');
    expect(flat).toContain('The findings provide moderate support for “H1” rather than “H2”.');
    expect(flat).not.toContain(' 1 in ');
    expect(flat).toContain('SWGDAM');
  });

  it('prints no verbal equivalent when the laboratory chose none', async () => {
    const text = pdfToText(await renderPdf(hitReportDocument(identityHit(), { ...CONTEXT, facts: { ...FACTS, verbalScale: 'none' } })));
    expect(text).toContain('times more likely');
    expect(text).not.toContain('The findings provide');
  });
});

describe('the calculator’s PDF', () => {
  const result: AnalysisResult = {
    analysisId: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21',
    analysisName: 'Identity',
    analysisLabel: 'Same source (NRC II 4.10, θ = 0.01)',
    kind: 'Computational',
    roles: [
      { role: 'Evidence', profileId: EVIDENCE, sampleName: 'EVIDENCE-1', caseId: CASE.caseId, caseNumber: CASE.caseNumber },
      { role: 'Reference', profileId: REFERENCE, sampleName: 'REFERENCE-1', caseId: CASE.caseId, caseNumber: CASE.caseNumber },
    ],
    constants: [{ name: 'theta', notation: '\\theta', value: 0.01 }],
    missingPatterns: [],
    populations: [
      { populationId: POPULATION.id, populationName: POPULATION.name, populationSource: POPULATION.source, synthetic: false, markers: MARKERS, combinedIndex: 3.0e8, log10: 8.48, probability: '99.99% (CI 3.00e+8)', haplotypeCount: null },
    ],
    exclusion: null,
    pedigree: null,
    mutation: null,
    computedAt: '2026-03-03T11:00:00.000Z',
  };

  it('leads with the conclusion, then the profiles, the marker table with frequencies and N, the formulae once, θ, page n of m and the signature block', async () => {
    const pdf = await renderPdf(analysisResultDocument(result, 'Peter Printer', FACTS));
    if (process.env.REPORT_PDF_DIR) writeFileSync(path.join(process.env.REPORT_PDF_DIR, 'calculator.pdf'), pdf);
    const page1 = pdfToText(pdf, { first: 1, last: 1 });
    const text = pdfToText(pdf);
    const flat = text.replace(/\s+/g, ' ');
    expect(page1.replace(/\s+/g, ' ')).toContain('The DNA results are 3.0 × 10⁸ times more likely if EVIDENCE-1 (Evidence) and REFERENCE-1 (Reference) come from the same person');
    expect(page1.replace(/\s+/g, ' ')).toContain('1 in 3.0 × 10⁸');
    expect(page1).toMatch(/Page 1 of \d/);
    expect(flat.indexOf('Conclusion')).toBeLessThan(flat.indexOf('Per marker over FBI 2015 Caucasian'));
    expect(flat).toMatch(/15: 0\.246 +1,036 +PQ-PQ +11\.8 17: 0\.212/);
    expect(flat).toContain('Formulae used');
    expect(flat).toContain('θ 0.01');
    expect(flat).toContain('Combined LR: 3.00 × 10⁸');
    expect(flat).toMatch(/Prepared by .*Name: Peter Printer/);
    expect(flat).toContain('Reviewed by');
    expectNoExponentForm(text);
  });
});
