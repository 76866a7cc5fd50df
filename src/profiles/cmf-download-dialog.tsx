import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, type DefaultValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CMF_SPECIMEN_CATEGORIES, cmfSpecimenCategory } from '../../core/cmf-categories';
import { CmfDownloadChoices, defaultSubmitter } from '../../core/schemas/cmf-download';
import { toEditorError } from '../../machines/recordEditor.machine';
import { SelectField } from '../ui/form/select-field';
import { TextField } from '../ui/form/text-field';
import { DialogFormFooter } from '../ui/form/dialog-form-footer';

const CATEGORY_OPTIONS = CMF_SPECIMEN_CATEGORIES.map((c) => ({ value: c, label: c }));

/** What the dialog starts from: the profile's own category and name, the user's short submitter id (as the server would write them). */
export function cmfDefaults(profile: { profileId: string; sampleType: string }, email: string): DefaultValues<CmfDownloadChoices> {
  return { specimenCategory: cmfSpecimenCategory(profile.sampleType) ?? undefined, specimenId: profile.profileId, submitter: defaultSubmitter(email) };
}

interface CmfDownloadDialogProps {
  open: boolean;
  profile: { profileId: string; sampleType: string };
  email: string;
  /** Downloads with the choices; resolves to the saved file's name. A refusal (the server's message) is shown in the dialog. */
  download(choices: CmfDownloadChoices): Promise<string>;
  onSaved(name: string): void;
  onCancel(): void;
}

/**
 * The CMF download's choices (issue 30): CODIS specimen category, specimen id and submitter, pre-filled with what the
 * profile and the user give, checked with the server's own schema; what CODIS would refuse is said by the server.
 */
export function CmfDownloadDialog({ open, profile, email, download, onSaved, onCancel }: CmfDownloadDialogProps) {
  const form = useForm<CmfDownloadChoices>({ resolver: zodResolver(CmfDownloadChoices), defaultValues: cmfDefaults(profile, email) });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  useEffect(() => {
    if (!open) return;
    form.reset(cmfDefaults(profile, email));
    setFailure(null);
    // A pre-filled value CMF cannot hold (a Reference, a long name) is pointed out at once.
    void form.trigger();
  }, [open]);
  const submit = form.handleSubmit(async (choices) => {
    setFailure(null);
    try {
      onSaved(await download(choices));
    } catch (err) {
      setFailure(toEditorError(err).message);
    }
  });
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || busy ? undefined : onCancel())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">Download CMF XML</Dialog.Title>
          <FormProvider {...form}>
            <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
              <SelectField name="specimenCategory" label="CODIS specimen category" options={CATEGORY_OPTIONS} placeholder="Choose a category" required />
              <TextField name="specimenId" label="Specimen id" hint="At most 24 characters (CMF 3.2 SPECIMENID)" required />
              <TextField name="submitter" label="Submitted by (CODIS user id)" hint="At most 20 characters (CMF 3.2 SUBMITBYUSERID)" required />
              <DialogFormFooter failure={failure} busy={busy} onCancel={onCancel} submitLabel="Download" busyLabel="Downloading…" />
            </form>
          </FormProvider>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
