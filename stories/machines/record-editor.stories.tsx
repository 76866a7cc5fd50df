/**
 * Every state of machines/recordEditor a reviewer can reach, drawn as the edit screen shows it
 * (EditorPage around a Name form). No actor runs: each story hands the screen one snapshot.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { NamedRecordInput, type NamedRecord } from '../../core/schemas/named-record';
import { STALE_RECORD_MESSAGE } from '../../core/schemas/list';
import { EditorPage } from '../../src/ui/record/editor-page';
import { RecordForm } from '../../src/ui/record/record-form';
import type { RecordEditor } from '../../src/ui/record/use-record-editor';
import { TextField } from '../../src/ui/form/text-field';
import { StoryRouter } from '../app/story-router';

const ORG = '11111111-1111-4111-8111-111111111111';
const stored: NamedRecord = { id: '22222222-2222-4222-8222-222222222222', name: 'Forensic Lab Bergen', version: 3, createdAt: '2026-01-05T10:00:00Z' };
const noop = () => undefined;

function editorIn(status: RecordEditor<NamedRecord, NamedRecordInput>['status'], patch: Partial<RecordEditor<NamedRecord, NamedRecordInput>> = {}) {
  return {
    status,
    isNew: false,
    record: status === 'loading' || status === 'loadFailed' ? null : stored,
    draft: null,
    error: null,
    save: noop,
    askDelete: noop,
    confirmDelete: noop,
    cancelDelete: noop,
    reload: noop,
    retry: noop,
    ...patch,
  } satisfies RecordEditor<NamedRecord, NamedRecordInput>;
}

function EditorScreen({ editor }: { editor: RecordEditor<NamedRecord, NamedRecordInput> }) {
  const values = { name: editor.draft?.name ?? editor.record?.name ?? '' };
  return (
    <StoryRouter path={`/${ORG}/laboratories/${stored.id}/edit`}>
      <EditorPage title={editor.isNew ? 'New laboratory' : 'Laboratory'} editor={editor} doneHref={`/${ORG}/laboratories`} deleteWhat={(r) => `laboratory "${r.name}"`}>
        <RecordForm
          schema={NamedRecordInput}
          values={values}
          onSubmit={noop}
          busy={editor.status === 'saving'}
          cancelHref={`/${ORG}/laboratories`}
          onDelete={editor.isNew ? undefined : noop}
        >
          <TextField name="name" label="Name" required />
        </RecordForm>
      </EditorPage>
    </StoryRouter>
  );
}

const meta = { title: 'Machines/Record editor', component: EditorScreen } satisfies Meta<typeof EditorScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** loading: an existing record is being read. */
export const Loading: Story = { args: { editor: editorIn('loading') } };
/** loadFailed: the read failed; the user may try again. */
export const LoadFailed: Story = { args: { editor: editorIn('loadFailed', { error: { status: 500, message: 'Your request failed. Please try again later.' } }) } };
/** loadFailed with 404: the record was deleted meanwhile. */
export const LoadFailedGone: Story = { args: { editor: editorIn('loadFailed', { error: { status: 404, message: 'No laboratory with id …' } }) } };
/** editing a new record (no Delete). Press Save with the field empty to see "Required". */
export const EditingNew: Story = { args: { editor: editorIn('editing', { isNew: true, record: null }) } };
/** editing an existing record. */
export const EditingExisting: Story = { args: { editor: editorIn('editing') } };
/** saving: the form is locked while the call runs. */
export const Saving: Story = { args: { editor: editorIn('saving', { draft: { name: 'Forensic Lab Bergen (West)' } }) } };
/** editing after a refused save: the server's message, the user's input kept. */
export const SaveRefused: Story = {
  args: { editor: editorIn('editing', { draft: { name: 'Oslo' }, error: { status: 409, message: 'A laboratory named "Oslo" already exists' } }) },
};
/** editing after a stale save (409): the record changed meanwhile; the user may load the current version. */
export const StaleVersion: Story = {
  args: { editor: editorIn('editing', { draft: { name: 'Forensic Lab Bergen West' }, error: { status: 409, message: STALE_RECORD_MESSAGE } }) },
};
/** confirmingDelete: the dialog asks before deleting. */
export const ConfirmingDelete: Story = { args: { editor: editorIn('confirmingDelete') } };
/** deleting: the dialog's buttons are locked while the call runs. */
export const Deleting: Story = { args: { editor: editorIn('deleting') } };
/** editing after a refused delete: the message names what still uses the record. */
export const DeleteRefused: Story = {
  args: { editor: editorIn('editing', { error: { status: 409, message: 'Laboratory "Forensic Lab Bergen" cannot be deleted: profiles still name it' } }) },
};
