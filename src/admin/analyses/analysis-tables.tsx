import { Link, useLocation } from 'wouter';
import { CONTINUOUS_MIXTURE, isMixtureKind, type Analysis, type Constant, type Formula } from '../../../core/schemas/analyses';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { routes } from '../../app/routes';
import { DataTable, type DataColumn } from '../../ui/data-table/data-table';
import { FormulaInformation } from './formula-information';
import { MathText } from './math-text';

interface SectionProps<T> {
  id: string;
  title: string;
  label: string;
  addHref: string | undefined;
  addLabel: string;
  columns: readonly DataColumn<T>[];
  load(query: ListQueryInput): Promise<ListResult<T>>;
  rowHref(row: T): string;
  emptyText: string;
}

/** A titled server-paged table under the analysis form, with its Add link when the user may add. */
function TableSection<T extends { id: string }>({ id, title, label, addHref, addLabel, columns, load, rowHref, emptyText }: SectionProps<T>) {
  const [, navigate] = useLocation();
  return (
    <section className="analysis-table" aria-labelledby={id}>
      <div className="page__header">
        <h2 id={id}>{title}</h2>
        {addHref ? (
          <Link href={addHref} className="button button--secondary">
            {addLabel}
          </Link>
        ) : null}
      </div>
      <DataTable<T> label={label} columns={columns} load={load} rowHref={rowHref} onNavigate={navigate} emptyText={emptyText} />
    </section>
  );
}

interface TablesProps {
  orgId: string;
  analysis: Analysis;
  mayAdd: boolean;
  loadFormulae(query: ListQueryInput): Promise<ListResult<Formula>>;
  loadConstants(query: ListQueryInput): Promise<ListResult<Constant>>;
}

/** What a Mixture analysis has instead of tables: its likelihoods come from the model and the parameters above. */
function MixtureLikelihoods({ continuous }: { continuous: boolean }) {
  return (
    <section className="analysis-table" aria-labelledby="likelihoods-title">
      <h2 id="likelihoods-title">Likelihoods</h2>
      {continuous ? (
        <p>
          A continuous mixture analysis has no formulae or constants: its likelihoods come from the stain’s peak heights under the gamma
          model (mixture proportions, degradation, stutters, drop-in, θ), its parameters fixed or fitted in the calculator for each run.
        </p>
      ) : (
        <p>
          A mixture analysis has no formulae or constants: its likelihoods Pr(E|Hp) and Pr(E|Hd) come from the semi-continuous model
          (drop-out, drop-in, θ) and the mixture parameters above.
        </p>
      )}
    </section>
  );
}

/**
 * The formulae table (allele expression, information) and, for computational analyses, the constants table (spec 2.5);
 * a Mixture analysis has neither, and says where its likelihoods come from.
 */
export function AnalysisTables({ orgId, analysis, mayAdd, loadFormulae, loadConstants }: TablesProps) {
  if (isMixtureKind(analysis.kind)) return <MixtureLikelihoods continuous={analysis.kind === CONTINUOUS_MIXTURE} />;
  const at = { orgId, analysisGroupId: analysis.analysisGroupId, analysisId: analysis.id };
  const formulaHref = (formulaId: string) => routes.FormulaEdit.href({ ...at, formulaId });
  const constantHref = (constantId: string) => routes.ConstantEdit.href({ ...at, constantId });
  return (
    <>
      <TableSection<Formula>
        id="formulae-title"
        title="Formulae"
        label={`Formulae of ${analysis.name}`}
        addHref={mayAdd ? formulaHref('new') : undefined}
        addLabel="Add formula"
        columns={[
          { field: 'pattern', header: 'Allele expression', sortable: true, filterable: true, width: 200 },
          { field: 'information', header: 'Information', flex: 3, text: (f) => f.expression ?? '', render: (f) => <FormulaInformation formula={f} /> },
        ]}
        load={loadFormulae}
        rowHref={(f) => formulaHref(f.id)}
        emptyText="This analysis has no formulae yet."
      />
      {analysis.kind === 'Computational' ? (
        <TableSection<Constant>
          id="constants-title"
          title="Constants"
          label={`Constants of ${analysis.name}`}
          addHref={mayAdd ? constantHref('new') : undefined}
          addLabel="Add constant"
          columns={[
            { field: 'name', header: 'Name', sortable: true, filterable: true },
            { field: 'notation', header: 'Mathematical notation', sortable: true, render: (c) => <MathText latex={c.notation || c.name} /> },
            { field: 'value', header: 'Value', sortable: true, width: 160 },
          ]}
          load={loadConstants}
          rowHref={(c) => constantHref(c.id)}
          emptyText="This analysis has no constants."
        />
      ) : null}
    </>
  );
}
