import { routes } from '../../app/routes';
import { SettingsTextPanel } from './settings-text-panel';

/** About (spec 2.6): the editable About us text. */
export function AboutPage() {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{routes.About.title}</h1>
      <SettingsTextPanel id="About" label="About us" />
    </section>
  );
}
