/**
 * The import preview of the profile upload (src/profiles/import-preview.tsx): the parsed profiles
 * with their errors beside them, the file's errors and warnings, a checkbox per addable profile.
 */
import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ImportedProfile, ProfileImportResult } from '../../core/schemas/profiles';
import { ImportPreview } from '../../src/profiles/import-preview';
import '../../src/profiles/profiles.css';

const marker = (name: string, alleles: string[]) => ({ markerId: `m-${name}`, marker: name, alleles });
const profile = (profileId: string, errors: string[] = []): ImportedProfile => ({
  profileId,
  kind: 'Autosomal',
  kit: 'GlobalFiler',
  sampleType: 'Forensic, Unknown',
  markerValues: [marker('D3S1358', ['15', '16']), marker('vWA', ['17']), marker('Amelogenin', ['X', 'Y'])],
  errors,
});
const result = (overrides: Partial<ProfileImportResult> = {}): ProfileImportResult => ({
  fileName: 'Codis-Single-Profile.xml',
  format: 'CODIS CMF 3.2',
  profiles: [profile('ABCD1234NL#01'), profile('ABCD1234NL#02', ['Marker D99S999 is invalid'])],
  errors: [],
  warnings: [],
  suggestedChemistryId: null,
  approvalExpiresAt: '2026-11-22T11:00:00.000Z',
  ...overrides,
});

function Preview({ preview }: { preview: ProfileImportResult }) {
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set([0]));
  const toggle = (i: number) => setChosen((c) => (c.has(i) ? new Set([...c].filter((x) => x !== i)) : new Set([...c, i])));
  return (
    <div className="page">
      <ImportPreview result={preview} chosen={chosen} onToggle={toggle} disabled={false} />
    </div>
  );
}

const meta = { title: 'Profiles/Import preview', component: Preview } satisfies Meta<typeof Preview>;
export default meta;
type Story = StoryObj<typeof meta>;

export const RowErrors: Story = { args: { preview: result() } };
export const FileErrorsAndWarnings: Story = {
  args: {
    preview: result({
      errors: [{ row: 12, sample: 'ABCD1234NL#03', marker: 'D99S999', message: 'Marker D99S999 is invalid' }],
      warnings: [{ row: null, message: 'The file names no kit; the chemistry is suggested from its markers' }],
    }),
  },
};
