import type { SettingsText, SettingsTextId, SettingsTextInput } from '../../../core/schemas/settings-texts';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The About us and Contact texts (server/http/settings-texts). */
export function settingsTextsApi(api: ApiClient) {
  const item = (id: SettingsTextId) => ({ params: { path: { id } } });
  return {
    get: (id: SettingsTextId): Promise<SettingsText> => unwrap(api.GET('/api/settings/{id}', item(id))),
    save: (id: SettingsTextId, body: SettingsTextInput): Promise<SettingsText> => unwrap(api.PUT('/api/settings/{id}', { ...item(id), body })),
  };
}
