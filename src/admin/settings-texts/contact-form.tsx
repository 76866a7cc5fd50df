import { useState } from 'react';
import { ContactMessage, CONTACT_NO_EFFECT_MESSAGE } from '../../../core/schemas/settings-texts';
import { TextareaField } from '../../ui/form/textarea-field';
import { TextField } from '../../ui/form/text-field';
import { RecordForm } from '../../ui/record/record-form';

const EMPTY = { name: '', email: '', message: '' };

/**
 * The Contact form (spec 2.6: "saving a contact message has no effect"). It validates like any form,
 * then says plainly that nothing was stored or sent; it makes no call. The text stays in the form,
 * so the user can copy it into an e-mail.
 */
export function ContactForm({ dashboardHref }: { dashboardHref: string }) {
  const [submitted, setSubmitted] = useState(false);
  return (
    <section aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Write a message</h2>
      <p className="field__hint">Messages written here are not stored or sent.</p>
      {submitted ? (
        <div className="notice notice--info" role="status">
          <p>{CONTACT_NO_EFFECT_MESSAGE}</p>
        </div>
      ) : null}
      <RecordForm schema={ContactMessage} values={EMPTY} onSubmit={() => setSubmitted(true)} busy={false} cancelHref={dashboardHref} submitLabel="Send">
        <TextField name="name" label="Name" autoComplete="name" required />
        <TextField name="email" label="E-mail" type="email" autoComplete="email" required />
        <TextareaField name="message" label="Message" rows={6} required />
      </RecordForm>
    </section>
  );
}
