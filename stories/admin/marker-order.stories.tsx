/**
 * The ordered marker list of the chemistry forms (src/admin/chemistries/marker-order-editor.tsx).
 * Each story keeps its own list in state, so adding, removing, the arrow buttons and dragging all work.
 */
import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { MarkerOrderEditor, type MarkerChoice } from '../../src/admin/chemistries/marker-order-editor';

const marker = (name: string, aliases: string[] = []): MarkerChoice => ({ id: `m-${name}`, name, aliases });

/** GlobalFiler in its published order (dye channel, then size). */
const GLOBALFILER = [
  'D3S1358', 'vWA', 'D16S539', 'CSF1PO', 'TPOX', 'Yindel', 'Amelogenin', 'D8S1179', 'D21S11', 'D18S51', 'DYS391', 'D2S441',
  'D19S433', 'TH01', 'FGA', 'D22S1045', 'D5S818', 'D13S317', 'D7S820', 'SE33', 'D10S1248', 'D1S1656', 'D12S391', 'D2S1338',
].map((name) => marker(name));
const AUTOSOMAL_CHOICES = [...GLOBALFILER, marker('Penta D', ['PENTA_D', 'PentaD']), marker('Penta E', ['PENTA_E', 'PentaE'])];
const Y_CHOICES = ['DYS19', 'DYS389I', 'DYS389II', 'DYS390', 'DYS391', 'DYS392', 'DYS393', 'DYS437', 'DYS438', 'DYS439', 'DYS448', 'DYS456', 'DYS458', 'DYS635', 'Y-GATA-H4']
  .map((name) => marker(name))
  .concat(marker('DYS385', ['DYS385a/b']));

interface StoryArgs {
  initial: readonly MarkerChoice[];
  choices: readonly MarkerChoice[];
  choiceNoun?: string;
  readOnly?: boolean;
  error?: string;
}

function Editor({ initial, ...rest }: StoryArgs) {
  const [value, setValue] = useState<readonly MarkerChoice[]>(initial);
  return (
    <div className="page" style={{ maxWidth: '40rem' }}>
      <MarkerOrderEditor {...rest} value={value} onChange={setValue} required />
    </div>
  );
}

const meta = { title: 'Admin/Marker order', component: Editor } satisfies Meta<typeof Editor>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A new Y-STR chemistry: nothing yet; type a name or alias (DYS385a/b) and press Enter. */
export const EmptyYStr: Story = { args: { initial: [], choices: Y_CHOICES, choiceNoun: 'Y-STR marker' } };
/** Saved without markers: the form's message under the list. */
export const Required: Story = { args: { initial: [], choices: Y_CHOICES, choiceNoun: 'Y-STR marker', error: 'Add at least one marker' } };
/** A few Y markers: the first cannot move up, the last cannot move down. */
export const ShortYStr: Story = { args: { initial: Y_CHOICES.slice(0, 4), choices: Y_CHOICES, choiceNoun: 'Y-STR marker' } };
/** GlobalFiler's 24 entries, Amelogenin and its Y markers included; the list scrolls. */
export const GlobalFiler: Story = { args: { initial: GLOBALFILER, choices: AUTOSOMAL_CHOICES } };
/** For a user who may read but not change the chemistry: the order only. */
export const ReadOnly: Story = { args: { initial: GLOBALFILER.slice(0, 8), choices: [], readOnly: true } };
