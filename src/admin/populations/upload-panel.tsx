import { useEffect, useRef } from 'react';
import type { SnapshotFrom } from 'xstate';
import { STATISTICS_FILE_TYPES } from '../../../core/schemas/populations';

/** A sample-size table is a plain table (fbi2015-n.csv, nist1036-n.csv). */
const SAMPLE_SIZE_FILE_TYPES = '.csv,.tsv,.txt';
import { awaitsPopulationChoice, type PopulationUploadEvent, type populationUploadMachine } from '../../../machines/populationUpload.machine';
import { StatisticsPreview } from './statistics-preview';

interface UploadPanelProps {
  populationName: string;
  snapshot: SnapshotFrom<typeof populationUploadMachine>;
  send(event: PopulationUploadEvent): void;
}

/**
 * What the upload machine's state looks like on screen: the file input, progress, the preview with
 * its errors, and Save statistics enabled only when the machine accepts it.
 */
export function UploadPanel({ populationName, snapshot, send }: UploadPanelProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const { file, sampleSizesFile, preview, error } = snapshot.context;
  const blocked = preview !== null && preview.errors.length > 0;

  // The picker closed without a file: browsers fire `cancel` on the input (React has no prop for it).
  useEffect(() => {
    const input = inputRef.current;
    const dismissed = () => send({ type: 'file.dismissed' });
    input?.addEventListener('cancel', dismissed);
    return () => input?.removeEventListener('cancel', dismissed);
  }, [send]);

  return (
    <div className="population-upload">
      <p>
        The file replaces the statistics of {populationName} only when you save them; until then nothing is stored. Allele frequency
        tables (CSV or TSV, Familias, STRidER XML, Excel) suit autosomal populations; a Y-STR population takes a haplotype table, one row
        per man.
      </p>
      <div className="field">
        <label className="field__label" htmlFor="statistics-file">
          Statistics file
        </label>
        <input
          ref={inputRef}
          id="statistics-file"
          className="input"
          type="file"
          accept={STATISTICS_FILE_TYPES}
          disabled={snapshot.hasTag('busy')}
          aria-describedby="statistics-file-hint"
          onClick={() => send({ type: 'file.choose' })}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            send(chosen ? { type: 'file.selected', file: chosen } : { type: 'file.dismissed' });
            // Lets the same file be chosen again after it was corrected.
            e.target.value = '';
          }}
        />
        <p className="field__hint" id="statistics-file-hint">
          {file ? `Chosen: ${file.name}` : `Accepted: ${STATISTICS_FILE_TYPES.split(',').join(', ')}`}
        </p>
      </div>

      <div className="field">
        <label className="field__label" htmlFor="sample-sizes-file">
          Sample sizes (N per marker), if the table ships them apart
        </label>
        <input
          id="sample-sizes-file"
          className="input"
          type="file"
          accept={SAMPLE_SIZE_FILE_TYPES}
          disabled={!snapshot.can({ type: 'sampleSizes.selected', file: null })}
          aria-describedby="sample-sizes-file-hint"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) send({ type: 'sampleSizes.selected', file: chosen });
            e.target.value = '';
          }}
        />
        <p className="field__hint" id="sample-sizes-file-hint">
          {sampleSizesFile
            ? `Chosen: ${sampleSizesFile.name}`
            : 'Optional: marker and N (or n_alleles) per row, such as fbi2015-n.csv beside fbi2015.csv; the minimum allele frequency is then 5/(2N).'}
        </p>
        {sampleSizesFile ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={!snapshot.can({ type: 'sampleSizes.selected', file: null })}
            onClick={() => send({ type: 'sampleSizes.selected', file: null })}
          >
            Remove {sampleSizesFile.name}
          </button>
        ) : null}
      </div>

      {snapshot.matches('previewing') ? (
        <p role="status" aria-busy="true">
          Reading {file?.name}…
        </p>
      ) : null}
      {snapshot.matches('previewFailed') ? (
        <div className="notice notice--negative" role="alert">
          <p>{error?.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'preview.retry' })}>
            Try again
          </button>
        </div>
      ) : null}
      {snapshot.matches('failed') ? (
        <div className="notice notice--negative" role="alert">
          <p>The statistics were not saved: {error?.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'failure.dismiss' })}>
            Back to the preview
          </button>
        </div>
      ) : null}

      {preview && preview.populations.length > 1 ? (
        <div className="field">
          <label className="field__label" htmlFor="source-population">
            Population in the file
          </label>
          <select
            id="source-population"
            className="input"
            value={preview.population ?? ''}
            disabled={snapshot.hasTag('busy')}
            aria-describedby="source-population-hint"
            onChange={(e) => (e.target.value ? send({ type: 'population.select', population: e.target.value }) : undefined)}
          >
            {preview.population === null ? <option value="">Choose one…</option> : null}
            {preview.populations.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <p className="field__hint" id="source-population-hint">
            {file?.name} holds {preview.populations.length} populations; the one chosen is imported.
          </p>
        </div>
      ) : null}

      {preview ? <StatisticsPreview preview={preview} /> : null}

      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!snapshot.can({ type: 'save.confirm' })}
          aria-describedby={blocked ? 'save-blocked' : undefined}
          onClick={() => send({ type: 'save.confirm' })}
        >
          {snapshot.matches('saving') ? 'Saving…' : 'Save statistics'}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={!snapshot.can({ type: 'upload.cancel' })}
          onClick={() => send({ type: 'upload.cancel' })}
        >
          Cancel
        </button>
        {blocked ? (
          <p id="save-blocked" className="field__hint">
            {awaitsPopulationChoice(preview) ? 'Saving is possible once a population is chosen.' : 'Saving is possible once the file has no errors.'}
          </p>
        ) : null}
      </div>
    </div>
  );
}
