import { useState } from 'react';
import { Link } from 'wouter';
import type { Population } from '../../../core/schemas/populations';
import { routes } from '../../app/routes';
import { formatDateTime, formatSampleSize } from './format';
import type { PopulationCalls } from './population-api';

interface StatisticsSummaryProps {
  population: Population;
  orgId: string;
  calls: PopulationCalls;
  mayUpload: boolean;
  /** Set right after an upload was saved (the upload screen comes back here). */
  justSaved: boolean;
}

/** The Statistics section of a population: what is stored and where it came from, with upload and download. */
export function StatisticsSummary({ population, orgId, calls, mayUpload, justSaved }: StatisticsSummaryProps) {
  const [downloading, setDownloading] = useState(false);
  const s = population.statistics;
  const hasStatistics = s.markerCount > 0;
  const download = async () => {
    setDownloading(true);
    try {
      await calls.download(population.id, `${population.name}.csv`);
    } catch {
      // The API client has already told the user (spec 8.1).
    } finally {
      setDownloading(false);
    }
  };
  return (
    <section className="population-statistics" aria-labelledby="statistics-title">
      <h2 id="statistics-title">Statistics</h2>
      {justSaved && hasStatistics ? (
        <p className="notice population-statistics__saved" role="status">
          Statistics saved from {population.source}.
        </p>
      ) : null}
      {hasStatistics ? (
        <dl className="population-statistics__facts">
          <dt>Source</dt>
          <dd>{population.source}</dd>
          {population.statisticsUploadedAt ? (
            <>
              <dt>Uploaded</dt>
              <dd>{formatDateTime(population.statisticsUploadedAt)}</dd>
            </>
          ) : null}
          <dt>Markers</dt>
          <dd>{s.markerCount}</dd>
          {population.kind === 'YStr' ? (
            <>
              <dt>Haplotypes</dt>
              <dd>
                {s.haplotypeCount} distinct, {s.haplotypeTotal} men
              </dd>
            </>
          ) : (
            <>
              <dt>Alleles</dt>
              <dd>{s.alleleCount}</dd>
              <dt>N</dt>
              <dd>{formatSampleSize(s.sampleSizeMin, s.sampleSizeMax)}</dd>
            </>
          )}
        </dl>
      ) : (
        <p>No statistics uploaded yet.</p>
      )}
      <div className="form__actions">
        {mayUpload ? (
          <Link href={routes.PopulationsUpload.href({ orgId, id: population.id })} className="button button--primary">
            Upload statistics
          </Link>
        ) : null}
        {hasStatistics ? (
          <button type="button" className="button button--secondary" onClick={download} disabled={downloading} aria-busy={downloading}>
            {downloading ? 'Downloading…' : 'Download'}
          </button>
        ) : null}
      </div>
    </section>
  );
}
