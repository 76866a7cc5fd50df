/**
 * The search rules area (src/admin/search-rules): the table and the rule form, over fake calls that
 * answer from the fixtures below (the seed policy of ARCHITECTURE.md "Search policy").
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ListResult } from '../../core/schemas/list';
import type { SearchRule, SearchRuleFormOptions } from '../../core/schemas/search-rules';
import { ApiError } from '../../src/api/middleware/api-error';
import { SearchRuleEditView, type SearchRuleEditViewProps } from '../../src/admin/search-rules/search-rule-edit';
import { SearchRulesTableView } from '../../src/admin/search-rules/search-rules-table';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';

const IDENTITY = '10000000-0000-4000-8000-000000000001';
const SIBLING = '10000000-0000-4000-8000-000000000002';
const TRIO = '10000000-0000-4000-8000-000000000003';
const Y_HAPLOTYPE = '10000000-0000-4000-8000-000000000004';
const NORWEGIAN = '20000000-0000-4000-8000-000000000001';
const SWEDISH = '20000000-0000-4000-8000-000000000002';
const SYNTHETIC = '20000000-0000-4000-8000-000000000003';
const Y_NORWEGIAN = '20000000-0000-4000-8000-000000000004';

const OPTIONS: SearchRuleFormOptions = {
  analyses: [
    { id: IDENTITY, name: 'Identity', groupName: 'Identity', kind: 'Computational', profileKind: 'Autosomal', roleCount: 2, threshold: 1e6, active: true },
    { id: SIBLING, name: 'Full sibling', groupName: 'Kinship', kind: 'Computational', profileKind: 'Autosomal', roleCount: 2, threshold: 1e4, active: true },
    { id: TRIO, name: 'Paternity trio', groupName: 'Kinship', kind: 'Computational', profileKind: 'Autosomal', roleCount: 3, threshold: 1e4, active: true },
    { id: Y_HAPLOTYPE, name: 'Y-STR haplotype', groupName: 'Y-STR', kind: 'Computational', profileKind: 'YStr', roleCount: 2, threshold: null, active: true },
  ],
  populations: [
    { id: NORWEGIAN, name: 'Norwegian', kind: 'Autosomal', synthetic: false },
    { id: SWEDISH, name: 'Swedish', kind: 'Autosomal', synthetic: false },
    { id: SYNTHETIC, name: 'Synthetic demo population (not for casework)', kind: 'Autosomal', synthetic: true },
    { id: Y_NORWEGIAN, name: 'Norwegian Y-STR', kind: 'YStr', synthetic: false },
  ],
};

const at = '2025-01-15T09:30:00.000Z';
const rule = (id: number, over: Partial<SearchRule>): SearchRule => ({
  id: `30000000-0000-4000-8000-00000000000${id}`,
  version: 1,
  name: '',
  active: true,
  trigger: 'approval',
  searchingSampleTypes: ['Forensic, Unknown'],
  searchedSampleTypes: ['Convicted Offender'],
  analysisId: IDENTITY,
  analysisName: 'Identity',
  analysisKind: 'Computational',
  profileKind: 'Autosomal',
  stringency: 'moderate',
  minMarkers: 8,
  maxMismatches: 0,
  thresholdKind: 'likelihood-ratio',
  threshold: null,
  populationIds: [],
  populationNames: [],
  createdAt: at,
  updatedAt: at,
  ...over,
});

const RULES: SearchRule[] = [
  rule(1, {
    name: 'Forensic unknowns and mixtures vs offenders',
    searchingSampleTypes: ['Forensic, Unknown', 'Forensic Mixture'],
    searchedSampleTypes: ['Forensic, Unknown', 'Convicted Offender', 'Arrestee', 'Suspect, Known'],
  }),
  rule(2, { name: 'Offenders vs forensic', searchingSampleTypes: ['Convicted Offender', 'Arrestee', 'Suspect, Known'], searchedSampleTypes: ['Forensic, Unknown', 'Forensic Mixture'] }),
  rule(3, { name: 'Remains vs missing persons', searchingSampleTypes: ['Unidentified Human (Remains)'], searchedSampleTypes: ['Missing Person'], stringency: 'high', minMarkers: 10 }),
  rule(4, {
    name: 'Remains vs relatives',
    searchingSampleTypes: ['Unidentified Human (Remains)'],
    searchedSampleTypes: ['Biological Mother', 'Biological Father', 'Biological Child', 'Biological Sibling'],
    analysisId: SIBLING,
    analysisName: 'Full sibling',
    stringency: null,
    threshold: 10000,
    populationIds: [NORWEGIAN, SWEDISH],
    populationNames: ['Norwegian', 'Swedish'],
  }),
  rule(5, {
    name: 'Familial search of offenders',
    active: false,
    trigger: 'request',
    searchedSampleTypes: ['Convicted Offender', 'Arrestee'],
    analysisId: SIBLING,
    analysisName: 'Full sibling',
    stringency: null,
    thresholdKind: 'expected-chance-hits',
    threshold: 0.01,
    populationIds: [SYNTHETIC],
    populationNames: ['Synthetic demo population (not for casework)'],
  }),
];

const list = async (): Promise<ListResult<SearchRule>> => ({ items: RULES, count: RULES.length });
const never = () => new Promise<never>(() => undefined);
const calls = (over: Partial<SearchRuleEditViewProps['calls']> = {}): SearchRuleEditViewProps['calls'] => ({
  get: async (id) => RULES.find((r) => r.id === id) ?? RULES[0]!,
  formOptions: async () => OPTIONS,
  add: async (values) => rule(9, values),
  update: async (id, body) => ({ ...(RULES.find((r) => r.id === id) ?? RULES[0]!), ...body, version: body.version + 1 }),
  remove: async () => undefined,
  ...over,
});

/** What the server answers to a name another rule has (server/http/search-rules/rule-checks.ts). */
const duplicateName = new ApiError(400, { error: 'A search rule with this name exists', details: [{ path: '/name', message: 'A search rule with this name exists' }] }, 'PUT', '/api/search-rules');

function Screen({ children, path }: { children: React.ReactNode; path: string }) {
  return (
    <StoryRouter path={path}>
      <div style={{ padding: '1rem' }}>{children}</div>
    </StoryRouter>
  );
}

const meta = { title: 'Admin/Search rules', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** An administrator with scope All: every rule, and Add. */
export const Table: Story = {
  render: () => (
    <Screen path={`/${OSLO}/search-rules`}>
      <SearchRulesTableView orgId={OSLO} load={list} mayAdd />
    </Screen>
  ),
};

/** A user with SearchRules Read: the same rules, no Add. */
export const TableReadOnly: Story = {
  render: () => (
    <Screen path={`/${OSLO}/search-rules`}>
      <SearchRulesTableView orgId={OSLO} load={list} mayAdd={false} />
    </Screen>
  ),
};

const edit = (id: string, over: Partial<SearchRuleEditViewProps> = {}) => (
  <Screen path={`/${OSLO}/search-rules/${id}/edit`}>
    <SearchRuleEditView orgId={OSLO} id={id} calls={calls()} mayAdd mayEdit mayDelete {...over} />
  </Screen>
);

/** A new rule: runs on approval, so the synthetic population cannot be chosen. */
export const NewRule: Story = { render: () => edit('new') };

/** A CODIS identity rule with high stringency. */
export const IdentityRule: Story = { render: () => edit(RULES[2]!.id) };

/** A kinship rule ranked by its LR over two named populations. */
export const KinshipRule: Story = { render: () => edit(RULES[3]!.id) };

/** A familial search on request may use the synthetic population; switch Runs to On approval to see it refused. */
export const FamilialOnRequest: Story = { render: () => edit(RULES[4]!.id) };

/** Save answers 400: the server's message above the form and beside Name. Press Save to see it. */
export const ServerFieldError: Story = { render: () => edit(RULES[0]!.id, { calls: calls({ update: () => Promise.reject(duplicateName) }) }) };

/** A user with SearchRules Read only: every field disabled, Back instead of Save. */
export const ReadOnly: Story = { render: () => edit(RULES[3]!.id, { mayAdd: false, mayEdit: false, mayDelete: false }) };

/** The analyses and populations still loading. */
export const LoadingOptions: Story = { render: () => edit(RULES[0]!.id, { calls: calls({ formOptions: never }) }) };

/** The analyses and populations could not be loaded. */
export const OptionsFailed: Story = { render: () => edit(RULES[0]!.id, { calls: calls({ formOptions: () => Promise.reject(new Error('offline')) }) }) };
