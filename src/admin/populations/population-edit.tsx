import { useEffect, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { can, type Principal } from '../../../core/permissions';
import { isGuid } from '../../../core/guid';
import {
  DEFAULT_MINIMUM_ALLELE_FREQUENCY,
  POPULATION_KIND_LABELS,
  POPULATION_KINDS,
  PopulationInput,
  type Population,
} from '../../../core/schemas/populations';
import type { Me } from '../../../core/schemas/me';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { useShellSession } from '../../app/shell-session';
import { SelectField } from '../../ui/form/select-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { formatDate } from './format';
import { OrganizationsField } from './organizations-field';
import { populationApi } from './population-api';
import { StatisticsSummary } from './statistics-summary';
import './populations.css';

const KIND_OPTIONS = POPULATION_KINDS.map((kind) => ({ value: kind, label: POPULATION_KIND_LABELS[kind] }));

/** Spec 6: the organization list can be edited by an administrator with scope All. */
const choosesOrganizations = (p: Principal) => p.isAdmin && p.scope === 'All';

/**
 * Whom a new population is shared with before anyone chooses: the organization in the address when
 * the user belongs to it, else (for users who cannot choose) all of their own.
 */
function defaultOrganizations(principal: Principal, me: Me, orgId: string): string[] {
  const own = me.organizations.map((o) => o.id);
  if (isGuid(orgId) && (choosesOrganizations(principal) || own.includes(orgId))) return [orgId];
  return choosesOrganizations(principal) ? [] : own;
}

/** PopulationsEdit: name, kind, minimum allele frequency, organizations, and the Statistics section. */
export function PopulationEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const { me } = useShellSession();
  const search = useSearch();
  const calls = useMemo(() => populationApi(api), [api]);
  const editor = useRecordEditor<Population, PopulationInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const adminAll = choosesOrganizations(principal);
  const [allOrganizations, setAllOrganizations] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    if (adminAll) calls.organizations().then((list) => setAllOrganizations(list.items), () => undefined);
  }, [adminAll, calls]);

  const record = editor.record;
  const values = useMemo<PopulationInput>(
    () =>
      editor.draft ??
      (record
        ? { name: record.name, kind: record.kind, minimumAlleleFrequency: record.minimumAlleleFrequency, organizationIds: record.organizations.map((o) => o.id) }
        : { name: '', kind: 'Autosomal', minimumAlleleFrequency: DEFAULT_MINIMUM_ALLELE_FREQUENCY, organizationIds: defaultOrganizations(principal, me, orgId) }),
    [record],
  );
  // Until every organization has loaded, the ones the population is shared with are shown.
  const organizationOptions = adminAll && allOrganizations.length > 0 ? allOrganizations : record ? record.organizations : adminAll ? [] : me.organizations;
  const tableHref = routes.Populations.href({ orgId });
  const mayEdit = can(principal, 'Populations', editor.isNew ? 'Add' : 'Edit');
  const kindFixed = (record?.statistics.markerCount ?? 0) > 0;

  return (
    <EditorPage
      title={editor.isNew ? 'New population' : 'Population'}
      editor={editor}
      // A new population has no statistics yet: the next step is uploading them.
      doneHref={(saved) => (editor.isNew && saved ? routes.PopulationsUpload.href({ orgId, id: saved.id }) : tableHref)}
      deleteWhat={(r) => `population "${r.name}" and its statistics`}
    >
      <RecordForm
        schema={PopulationInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Populations', 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="name" label="Name" required />
        <SelectField
          name="kind"
          label="Kind"
          required
          options={KIND_OPTIONS}
          disabled={kindFixed}
          {...(kindFixed ? { hint: 'Fixed once statistics are uploaded.' } : {})}
        />
        <TextField
          name="minimumAlleleFrequency"
          label="Minimum allele frequency"
          type="number"
          required
          hint="Used for an allele absent from the population when N is unknown (otherwise 5/2N)."
        />
        {principal.scope === 'All' ? (
          <OrganizationsField
            options={organizationOptions}
            disabled={!adminAll}
            hint={adminAll ? 'Users of these organizations can use the population.' : 'Only an administrator with scope All can change them.'}
          />
        ) : null}
        {record ? (
          <div className="field">
            <span className="field__label">Date Created</span>
            <span>{formatDate(record.createdAt)}</span>
          </div>
        ) : null}
      </RecordForm>
      {record ? (
        <StatisticsSummary
          population={record}
          orgId={orgId}
          calls={calls}
          mayUpload={can(principal, 'Populations', 'Edit')}
          justSaved={new URLSearchParams(search).get('statistics') === 'saved'}
        />
      ) : null}
    </EditorPage>
  );
}
