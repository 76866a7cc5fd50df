import { routes } from '../../app/routes';
import { ContactForm } from './contact-form';
import { SettingsTextPanel } from './settings-text-panel';

/** Contact (spec 2.6): the editable Contact text and the contact form. */
export function ContactPage({ orgId }: { orgId: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{routes.Contact.title}</h1>
      <SettingsTextPanel id="Contact" label="Contact" />
      <ContactForm dashboardHref={routes.Dashboard.href({ orgId })} />
    </section>
  );
}
