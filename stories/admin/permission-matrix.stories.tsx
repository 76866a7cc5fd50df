/**
 * The role form's permission matrix (src/admin/access-groups/permission-matrix.tsx): entities as
 * rows, verbs as columns. Each story keeps its own grants, so the checkboxes can be clicked.
 */
import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { PermissionGrants } from '../../core/schemas/access-groups';
import { PermissionMatrix } from '../../src/admin/access-groups/permission-matrix';

function Matrix({ initial, disabled = false }: { initial: PermissionGrants; disabled?: boolean }) {
  const [grants, setGrants] = useState(initial);
  return (
    <div style={{ padding: '2rem' }}>
      <h2 id="matrix-title">Permissions</h2>
      <PermissionMatrix value={grants} onChange={setGrants} disabled={disabled} labelledBy="matrix-title" />
      <pre style={{ marginTop: '1rem', fontSize: '0.8rem' }}>{JSON.stringify(grants, null, 1)}</pre>
    </div>
  );
}

const meta = { title: 'Admin/Permission matrix', component: Matrix } satisfies Meta<typeof Matrix>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A new role: nothing granted yet. */
export const Empty: Story = { args: { initial: {} } };

/** The starter Analyst role: casework without publishing. */
export const Analyst: Story = {
  args: {
    initial: {
      Cases: ['Read', 'Add', 'Edit', 'ViewAudit'],
      Profiles: ['Read', 'Add', 'Edit'],
      Hits: ['Read'],
      Markers: ['Read'],
      Populations: ['Read'],
      Analyses: ['Read'],
      TaskRequests: ['Read', 'Add', 'Edit'],
    },
  },
};

/** The starter Reviewer role: publishes and resets hits. */
export const Reviewer: Story = {
  args: { initial: { Cases: ['Read', 'ViewAudit'], Profiles: ['Read'], Hits: ['Read', 'Publish', 'Reset'], Markers: ['Read'] } },
};

/** As someone without the right to change roles sees it. */
export const ReadOnly: Story = { args: { initial: { Cases: ['Read'], Hits: ['Read', 'Publish'] }, disabled: true } };
