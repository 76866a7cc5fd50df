import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { PasswordLink, UserFormOptions, UserInput, UserRecord, UserSummary } from '../../../core/schemas/users';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the Users area (spec 7.1: users, organizations/{id}/users) and its password calls. */
export function usersApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    /** One organization's users, or everyone the signed-in user may see when orgId is `all`. */
    list: (orgId: string, query: ListQueryInput): Promise<ListResult<UserSummary>> =>
      orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/users', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/users', { params: { path: { orgId }, query } })),
    get: (id: string): Promise<UserRecord> => unwrap(api.GET('/api/users/{id}', byId(id))),
    add: (body: UserInput): Promise<UserRecord> => unwrap(api.POST('/api/users', { body })),
    update: (id: string, body: UserInput & { version: number }): Promise<UserRecord> => unwrap(api.PUT('/api/users/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/users/{id}', byId(id))).then(() => undefined),
    formOptions: (): Promise<UserFormOptions> => unwrap(api.GET('/api/users/form-options')),
    setPassword: (id: string, password: string): Promise<void> =>
      unwrap(api.POST('/api/users/{id}/password', { ...byId(id), body: { password } })).then(() => undefined),
    passwordLink: (id: string): Promise<PasswordLink> => unwrap(api.POST('/api/users/{id}/password-link', byId(id))),
  };
}

export type UsersApi = ReturnType<typeof usersApi>;
