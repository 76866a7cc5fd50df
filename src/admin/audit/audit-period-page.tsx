import { useId, useMemo, useState } from 'react';
import { AUDIT_RECORD_TYPES } from '../../../core/audit/audit-labels';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { AuditTrail, readerTimeZone } from '../../ui/audit-trail/audit-trail';
import { auditApi, type AuditCalls, type AuditPeriodChoice } from './audit-api';

/** A day as the date inputs write it (yyyy-mm-dd), in the reader's calendar. */
const localDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The last 30 days, today included: what an auditor most often looks at first. */
function lastMonth(): AuditPeriodChoice {
  const today = new Date();
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29);
  return { from: localDay(start), to: localDay(today), entity: '', timeZone: readerTimeZone() };
}

/**
 * The organization's audit trail over a period (issue 18), at /{orgId}/audit: from–to in whole local
 * days, optionally one record type; the rows as a reader reads them and Export CSV / Export PDF of the
 * period, each with the hash chain verified. At `all` (scope All) it is every organization's and the
 * administration's trail.
 */
export function AuditPeriodPageView({ orgId, calls }: { orgId: string; calls: AuditCalls }) {
  const id = useId();
  const [period, setPeriod] = useState<AuditPeriodChoice>(lastMonth);
  const set = (change: Partial<AuditPeriodChoice>) => setPeriod((p) => ({ ...p, ...change }));
  const inOrder = period.from !== '' && period.to !== '' && period.from <= period.to;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{routes.AuditTrail.title}</h1>
      </div>
      <div className="profile-actions">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-from`}>
            From
          </label>
          <input id={`${id}-from`} className="input" type="date" value={period.from} max={period.to || undefined} onChange={(e) => set({ from: e.target.value })} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-to`}>
            To
          </label>
          <input id={`${id}-to`} className="input" type="date" value={period.to} min={period.from || undefined} onChange={(e) => set({ to: e.target.value })} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-entity`}>
            Record type
          </label>
          <select id={`${id}-entity`} className="input" value={period.entity} onChange={(e) => set({ entity: e.target.value })}>
            <option value="">Every record type</option>
            {AUDIT_RECORD_TYPES.map((t) => (
              <option key={t.entity} value={t.entity}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="field__hint">Days are whole days in your time zone ({period.timeZone}); the exports print times in it and say whether the trail's hash chain holds.</p>
      {inOrder ? (
        <AuditTrail
          label="Audit trail of the period"
          load={(query) => calls.list(orgId, period, query)}
          onExport={(format) => calls.export(orgId, period, format)}
          reloadKey={`${period.from}|${period.to}|${period.entity}`}
        />
      ) : (
        <p className="field__error" role="alert">
          Choose a period whose end is not before its start.
        </p>
      )}
    </section>
  );
}

export function AuditPeriodPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => auditApi(api), [api]);
  return <AuditPeriodPageView orgId={orgId} calls={calls} />;
}
