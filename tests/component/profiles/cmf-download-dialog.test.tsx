/**
 * Issue 30: a Reference, or a sample name over 24 characters, could only be found out at download, and the CMF
 * download's choices (CODIS specimen category, specimen id, submitter) that the server accepts were not offered.
 * The dialog offers them pre-filled, says what CMF cannot hold before sending, and shows the server's refusal.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CmfDownloadChoices } from '../../../core/schemas/cmf-download';
import { CmfDownloadDialog } from '../../../src/profiles/cmf-download-dialog';

const LONG_NAME = 'REFERENCE-OF-THE-VICTIM-0001';

function renderDialog(profile: { profileId: string; sampleType: string }, download: (c: CmfDownloadChoices) => Promise<string>) {
  const onSaved = vi.fn();
  render(<CmfDownloadDialog open profile={profile} email="anna.berg@oslo-laboratory.example" download={download} onSaved={onSaved} onCancel={() => {}} />);
  return { onSaved };
}

describe('CMF download dialog', () => {
  it('is pre-filled with the category of the sample type, the profile id and the short submitter id, and sends them', async () => {
    const download = vi.fn(async () => 'S-1.xml');
    const { onSaved } = renderDialog({ profileId: 'S-1', sampleType: 'Unidentified Human (Remains)' }, download);
    expect(screen.getByLabelText(/CODIS specimen category/)).toHaveValue('Unidentified Person');
    expect(screen.getByLabelText(/Specimen id/)).toHaveValue('S-1');
    // The address has 34 characters, over CMF's 20: its part before the @, as the server would write it.
    expect(screen.getByLabelText(/Submitted by/)).toHaveValue('anna.berg');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('S-1.xml'));
    expect(download).toHaveBeenCalledWith({ specimenCategory: 'Unidentified Person', specimenId: 'S-1', submitter: 'anna.berg' });
  });

  it('says at once what a Reference with a long name lacks, and downloads once a category and a short id are given', async () => {
    const download = vi.fn(async () => 'R-1.xml');
    renderDialog({ profileId: LONG_NAME, sampleType: 'Reference' }, download);
    const category = screen.getByLabelText(/CODIS specimen category/);
    await waitFor(() => expect(category).toHaveAccessibleDescription(/Required/));
    expect(screen.getByLabelText(/Specimen id/)).toHaveAccessibleDescription(/At most 24 characters/);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(download).not.toHaveBeenCalled();

    await userEvent.selectOptions(category, 'Victim, Known');
    await userEvent.clear(screen.getByLabelText(/Specimen id/));
    await userEvent.type(screen.getByLabelText(/Specimen id/), 'R-1');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(download).toHaveBeenCalledWith(expect.objectContaining({ specimenCategory: 'Victim, Known', specimenId: 'R-1' })));
  });

  it("shows the server's refusal in the dialog", async () => {
    const refusal = Object.assign(new Error('400'), { status: 400, serverMessage: 'No CMF file was written: the profile has no laboratory, which CMF 3.2 names as SOURCELAB; give the profile its laboratory.' });
    const { onSaved } = renderDialog({ profileId: 'S-2', sampleType: 'Suspect, Known' }, async () => Promise.reject(refusal));
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('the profile has no laboratory');
    expect(onSaved).not.toHaveBeenCalled();
  });
});
