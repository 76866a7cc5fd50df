import { useMemo } from 'react';
import { Link } from 'wouter';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { calculatorApi } from './calculator-api';
import { calculatorHref } from './group-analyses-page';

/**
 * AnalysisList (issue 18): every analysis, grouped as Analysis groups groups them, each opening its
 * calculator without a case (the calculator then offers the organization's profiles).
 */
export function AnalysisListPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => calculatorApi(api), [api]);
  const loaded = useLoaded('analyses', () => calls.analysesByGroup());
  const title = routes.AnalysisList.title;
  useDocumentTitle(title);
  return (
    <section className="page analysis-list" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <LoadState loaded={loaded} missing="No analyses found.">
        {(groups) =>
          groups.length === 0 ? (
            <p>There are no analyses yet.</p>
          ) : (
            groups.map(({ group, analyses }) => (
              <section key={group.id} className="analysis-list__group" aria-labelledby={`group-${group.id}`}>
                <h2 id={`group-${group.id}`}>{group.name}</h2>
                {analyses.length === 0 ? (
                  <p className="field__hint">No analyses in this group.</p>
                ) : (
                  <ul>
                    {analyses.map((a) => (
                      <li key={a.id}>
                        <Link href={calculatorHref(orgId, group.id, a.id, null)}>{a.name}</Link>
                        {a.label && a.label !== a.name ? <span className="field__hint"> {a.label}</span> : null}
                        {/* An inactive analysis cannot run; its calculator says so. */}
                        {a.active ? null : <span className="field__hint"> (inactive)</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            ))
          )
        }
      </LoadState>
    </section>
  );
}
