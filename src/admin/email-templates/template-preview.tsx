import { useWatch } from 'react-hook-form';
import { EMAIL_HOOKS, renderTemplate, sampleValues, type EmailHook } from '../../../core/schemas/email-templates';

const isHook = (hook: unknown): hook is EmailHook => typeof hook === 'string' && Object.hasOwn(EMAIL_HOOKS, hook);

/** What the hook fills in: each placeholder with its meaning, so the author knows what is offered. */
export function PlaceholderList() {
  const hook = useWatch({ name: 'hook' }) as unknown;
  if (!isHook(hook)) return <p className="field__hint">Choose a hook to see the placeholders it fills in.</p>;
  return (
    <div className="template-placeholders">
      <h2 id="placeholders-title">Placeholders</h2>
      <p className="field__hint">{EMAIL_HOOKS[hook].description}</p>
      <dl aria-labelledby="placeholders-title">
        {EMAIL_HOOKS[hook].placeholders.map((p) => (
          <div key={p.name} className="template-placeholders__item">
            <dt>
              <code>{`{${p.name}}`}</code>
            </dt>
            <dd>{p.description}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The e-mail as a recipient would read it, with the hook's sample values filled in (updates as the author types). */
export function TemplatePreview() {
  const [hook, subject, body] = useWatch({ name: ['hook', 'subject', 'body'] }) as [unknown, string | undefined, string | undefined];
  const values = isHook(hook) ? sampleValues(hook) : {};
  return (
    <section className="template-preview" aria-labelledby="template-preview-title">
      <h2 id="template-preview-title">Preview with sample values</h2>
      <p className="template-preview__subject">
        <span className="template-preview__label">Subject: </span>
        <span data-testid="preview-subject">{renderTemplate(subject ?? '', values)}</span>
      </p>
      <div className="template-preview__body" data-testid="preview-body">
        {renderTemplate(body ?? '', values)}
      </div>
    </section>
  );
}
