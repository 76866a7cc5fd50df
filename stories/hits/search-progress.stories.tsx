/** The Database searches panel of the hits screens (issue 31 fault): a bulk approval's 200 searches, the latest few shown. Example jobs for stories only. */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { SearchJob } from '../../core/schemas/searches';
import { SearchList } from '../../src/hits/search-progress';
import '../../src/hits/hits.css';

const ORG = '6e7f8a9b-0c1d-4e2f-9a3b-5c6d7e8f9a01';
const meta = { title: 'Hits/Database searches', component: SearchList, args: { jobs: [] as SearchJob[] } } satisfies Meta<typeof SearchList>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (second: number) => new Date(Date.UTC(2026, 10, 28, 12) + second * 1000).toISOString();
const BULK: SearchJob[] = Array.from({ length: 200 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
  profileId: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
  sampleName: `BULK-${i + 1}`,
  organizationId: ORG,
  status: i < 2 ? 'running' : 'done',
  done: i < 2 ? 3 : 8,
  total: 8,
  hits: i % 17 === 0 ? 1 : 0,
  error: null,
  queuedAt: at(0),
  finishedAt: i < 2 ? null : at(i),
}));
/** The Database searches panel after a bulk approval of 200 profiles: 2 running, the 5 latest finished, "193 more finished searches". */
export const BulkApprovalSearches: Story = { args: { jobs: BULK } };
/** Forty searches waiting: the first five named, the rest counted. */
export const ManyWaiting: Story = { args: { jobs: BULK.slice(2, 42).map((j) => ({ ...j, status: 'queued' as const, done: 0, finishedAt: null })) } };
