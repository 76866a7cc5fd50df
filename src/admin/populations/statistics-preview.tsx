import { describeIssue, POPULATION_KIND_LABELS, type FrequencyIssue, type StatisticsPreview as Preview } from '../../../core/schemas/populations';
import { awaitsPopulationChoice } from '../../../machines/populationUpload.machine';
import { AlleleFrequencyChart } from './allele-frequency-chart';
import { formatSum } from './format';

/** GENETICS.md: frequencies of one marker sum to 1 within ± 0.02. */
const SUM_TOLERANCE = 0.02;

function IssueList({ issues }: { issues: readonly FrequencyIssue[] }) {
  return (
    <ul className="statistics-preview__issues">
      {issues.map((issue, i) => (
        <li key={i}>{describeIssue(issue)}</li>
      ))}
    </ul>
  );
}

/**
 * What the server parsed from an uploaded file, before anything is saved: the detected format,
 * the errors by row (they block saving), warnings, and per marker N, allele count, sum and chart.
 */
export function StatisticsPreview({ preview }: { preview: Preview }) {
  const isHaplotypeTable = preview.haplotypeCount > 0;
  return (
    <section className="statistics-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview of {preview.fileName}</h2>
      <dl className="statistics-preview__facts">
        <dt>Format</dt>
        <dd>{preview.format}</dd>
        <dt>Kind</dt>
        <dd>{POPULATION_KIND_LABELS[preview.kind]}</dd>
        <dt>Markers</dt>
        <dd>{preview.markers.length}</dd>
        {isHaplotypeTable ? (
          <>
            <dt>Haplotypes</dt>
            <dd>
              {preview.haplotypeCount} distinct, {preview.haplotypeTotal} men
            </dd>
          </>
        ) : null}
      </dl>

      {awaitsPopulationChoice(preview) ? (
        <p className="notice notice--info" role="status">
          {preview.fileName} holds {preview.populations.length} populations: choose the one to import under Population in the file.
        </p>
      ) : preview.errors.length > 0 ? (
        <div className="notice notice--negative" role="alert" aria-labelledby="preview-errors-title">
          <h3 id="preview-errors-title">
            {preview.errors.length} error{preview.errors.length === 1 ? '' : 's'}: correct the file and choose it again
          </h3>
          <IssueList issues={preview.errors} />
        </div>
      ) : null}
      {preview.warnings.length > 0 ? (
        <div className="notice notice--warning" aria-labelledby="preview-warnings-title">
          <h3 id="preview-warnings-title">
            {preview.warnings.length} warning{preview.warnings.length === 1 ? '' : 's'}
          </h3>
          <IssueList issues={preview.warnings} />
        </div>
      ) : null}

      {preview.markers.length > 0 ? (
        <>
          <table className="statistics-preview__table">
            <caption className="visually-hidden">Markers in {preview.fileName}</caption>
            <thead>
              <tr>
                <th scope="col">Marker</th>
                <th scope="col">N</th>
                <th scope="col">{isHaplotypeTable ? 'Values' : 'Alleles'}</th>
                <th scope="col">Sum</th>
              </tr>
            </thead>
            <tbody>
              {preview.markers.map((m) => {
                const off = Math.abs(m.sum - 1) > SUM_TOLERANCE;
                return (
                  <tr key={m.markerId}>
                    <th scope="row">{m.marker}</th>
                    <td>{m.sampleSize ?? 'n/a'}</td>
                    <td>{m.alleles.length}</td>
                    <td className={off ? 'statistics-preview__sum--off' : undefined}>{formatSum(m.sum)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <h3>{isHaplotypeTable ? 'Value distribution per marker' : 'Allele frequency distribution per marker'}</h3>
          <div className="statistics-preview__charts">
            {preview.markers.map((m) => (
              <AlleleFrequencyChart key={m.markerId} marker={m.marker} alleles={m.alleles} />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}
