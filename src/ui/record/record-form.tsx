import { useEffect, type ReactNode } from 'react';
import { FormProvider, useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import type { z } from 'zod';

interface RecordFormProps<V extends FieldValues> {
  /** The same zod schema the server validates with (core/schemas). */
  schema: z.ZodType<V, V>;
  values: DefaultValues<V>;
  onSubmit(values: V): void;
  busy: boolean;
  cancelHref: string;
  /** Shown only when the record exists and the user may delete it. */
  onDelete?: (() => void) | undefined;
  readOnly?: boolean;
  submitLabel?: string;
  children: ReactNode;
}

/**
 * A react-hook-form form validated by a core/ zod schema ("Required" and the rest come from the
 * schema), with Save, Cancel and an optional Delete. Values reset when the record (re)loads.
 */
export function RecordForm<V extends FieldValues>(props: RecordFormProps<V>) {
  const { schema, values, onSubmit, busy, cancelHref, onDelete, readOnly = false, submitLabel = 'Save', children } = props;
  const form = useForm<V, unknown, V>({ resolver: zodResolver(schema as never) as never, defaultValues: values, mode: 'onSubmit' });
  useEffect(() => {
    form.reset(values);
  }, [values]);
  return (
    <FormProvider {...form}>
      <form className="form" noValidate onSubmit={form.handleSubmit(onSubmit)} aria-busy={busy}>
        <fieldset className="form__fields" disabled={readOnly || busy}>
          {children}
        </fieldset>
        <div className="form__actions">
          {readOnly ? null : (
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Saving…' : submitLabel}
            </button>
          )}
          <Link href={cancelHref} className="button button--secondary">
            {readOnly ? 'Back' : 'Cancel'}
          </Link>
          {onDelete && !readOnly ? (
            <button type="button" className="button button--danger form__delete" onClick={onDelete} disabled={busy}>
              Delete
            </button>
          ) : null}
        </div>
      </form>
    </FormProvider>
  );
}
