/**
 * The markers of a family's hit (issue 16) in the hit view: per marker L(H1), L(H2), the LR and the verdict, the
 * mutation models and the markers needing a mutation. Example figures for stories only.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { MarkerResult } from '../../core/schemas/analyses';
import type { HitView } from '../../core/schemas/hits';
import { HitPedigreeMarkers } from '../../src/hits/hit-pedigree';
import '../../src/analyses/calculator.css';
import '../../src/hits/hits.css';
import { pedigreeMarker } from './pedigree-hit-fixtures';

const ROLES = ['Missing person: MP-REMAINS', 'Mother: MP-MOTHER', 'Full sister: MP-SISTER'];
const marker = pedigreeMarker;

const CONSISTENT = [
  marker('CSF1PO', [['10', '12'], ['10', '11'], ['11', '12']], [3.2e-4, 4.1e-5], 'consistent'),
  marker('FGA', [['21', '24'], ['20', '24'], ['20', '21']], [2e-4, 5e-5], 'consistent'),
];

/** The view as the hit view holds it; only what the markers section reads is filled in. */
const view = (markers: MarkerResult[], overrides: Partial<HitView> = {}) =>
  ({ markers, population: { id: '4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e', name: 'FBI 2015 Caucasian', source: '' }, analysis: { kind: 'Pedigree' }, hit: { figures: null }, ...overrides }) as HitView;

const meta = { title: 'Hits/Pedigree hit markers', component: HitPedigreeMarkers, args: { roles: ROLES, view: view(CONSISTENT) } } satisfies Meta<typeof HitPedigreeMarkers>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every marker consistent without a mutation. */
export const Consistent: Story = {};
/** D3S1358 consistent only through a mutation (marked), TH01 explained by no model (LR 0). */
export const NeedingAMutation: Story = {
  args: {
    view: view([
      ...CONSISTENT,
      marker('D3S1358', [['15', '17'], ['16', '17'], ['15', '16']], [3.1e-7, 6.2e-5], 'needs a mutation'),
      marker('TH01', [['6', '9.3'], ['7', '8'], ['6', '7']], [0, 4e-5], 'excluded'),
    ]),
  },
};
/** A marker weighed with its own mutation models: each text once, with its markers. */
export const MarkerOwnModels: Story = {
  args: { view: view([...CONSISTENT, marker('D18S51', [['14', '17'], ['14', '15'], ['15', '17']], [1e-4, 3e-5], 'consistent', 'female: equal, rate 0.002; male: onestep, rate 0.004')]) },
};
/** Not recomputed (the analysis deactivated): the stored figures name the markers needing a mutation. */
export const StoredFiguresOnly: Story = {
  args: {
    view: view([], {
      hit: { figures: { populations: [{ reported: true, markersNeedingMutation: ['D3S1358'] }], stringency: null } } as unknown as HitView['hit'],
    }),
  },
};
