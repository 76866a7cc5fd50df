import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { FormulaInput, type Analysis, type Constant, type Formula } from '../../../core/schemas/analyses';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { TextField } from '../../ui/form/text-field';
import { TextareaField } from '../../ui/form/textarea-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { analysesApi, type AnalysesCalls } from './analyses-api';
import { ExclusionField } from './exclusion-field';
import { FormulaHelp } from './formula-help';
import { MathText } from './math-text';
import { ServerFieldErrors, useServerFieldErrors } from './server-field-errors';
import { useAnalysis } from './use-analysis';
import './analyses.css';

interface FormulaEditProps {
  orgId: string;
  analysisGroupId: string;
  analysisId: string;
  formulaId: string;
}

/** FormulaEdit (spec 2.5): one row of an analysis's formula table; `new` adds. The analysis is read first, as its kind shapes the form. */
export function FormulaEdit(props: FormulaEditProps) {
  const api = useApi();
  const calls = useMemo(() => analysesApi(api), [api]);
  const loaded = useAnalysis(props.analysisId, calls);
  if (loaded.status !== 'loaded') {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">Formula</h1>
        {loaded.status === 'loading' ? (
          <p role="status" aria-busy="true">
            Loading…
          </p>
        ) : (
          <p className="notice notice--negative" role="alert">
            {loaded.error.status === 404 ? 'This analysis no longer exists.' : loaded.error.message}
          </p>
        )}
      </section>
    );
  }
  return <FormulaForm {...props} calls={calls} analysis={loaded.analysis} constants={loaded.constants} />;
}

/** Keeps only what the analysis's kind stores: an expression (computational) or the exclusion flag. */
const forKind = (analysis: Analysis, values: FormulaInput): FormulaInput =>
  analysis.kind === 'Exclusion' ? { ...values, expression: null } : { ...values, expression: values.expression ?? '', isExclusion: null };

function FormulaForm({ orgId, analysisGroupId, formulaId, calls, analysis, constants }: FormulaEditProps & { calls: AnalysesCalls; analysis: Analysis; constants: readonly Constant[] }) {
  const principal = usePrincipal();
  const server = useServerFieldErrors();
  const editor = useRecordEditor<Formula, FormulaInput>(formulaId, {
    load: (id) => calls.formula(analysis.id, id),
    save: ({ id, record, values }) => {
      const body = forKind(analysis, values);
      return server.capture(id && record ? calls.updateFormula(analysis.id, id, { ...body, version: record.version }) : calls.addFormula(analysis.id, body));
    },
    remove: ({ id }) => calls.removeFormula(analysis.id, id),
  });
  const analysisHref = routes.AnalysisEdit.href({ orgId, analysisGroupId, analysisId: analysis.id });
  const values = useMemo((): FormulaInput => {
    const r = editor.draft ?? editor.record;
    return forKind(analysis, { pattern: r?.pattern ?? '', expression: r?.expression ?? '', isExclusion: r?.isExclusion ?? null });
  }, [editor.record, analysis]);
  const mayEdit = can(principal, 'Analyses', editor.isNew ? 'Add' : 'Edit');
  const haploid = analysis.profileKind === 'YStr';
  const patternHint =
    `One genotype per role, in the order ${analysis.roles.join(', ')}, joined by -. ` +
    `Letters P–U label the alleles in order of first appearance, e.g. ${haploid ? 'P-Q' : 'PQ-PR'}.`;
  return (
    <EditorPage
      title={editor.isNew ? `New formula of ${analysis.name}` : `Formula of ${analysis.name}`}
      editor={editor}
      doneHref={analysisHref}
      deleteWhat={(f) => `the formula of ${f.pattern} (it is then reported as not evaluated)`}
    >
      <RecordForm
        schema={FormulaInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={analysisHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Analyses', 'Delete') ? editor.askDelete : undefined}
      >
        <ServerFieldErrors errors={server.errors} />
        <TextField name="pattern" label="Allele expression" hint={patternHint} required />
        {analysis.kind === 'Exclusion' ? (
          <ExclusionField />
        ) : (
          <>
            <TextareaField name="expression" label="Formula" rows={3} required hint="Checked when saved: it must parse and use only the allele expression's frequencies and this analysis's constants." />
            {editor.record?.latex ? (
              <figure className="math-preview" aria-label="Saved formula">
                <figcaption className="math-preview__caption">As saved</figcaption>
                <MathText latex={editor.record.latex} display />
              </figure>
            ) : null}
            <FormulaHelp constants={constants} />
          </>
        )}
      </RecordForm>
    </EditorPage>
  );
}
