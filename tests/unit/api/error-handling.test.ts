import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/client';
import { fakeApi } from './fake-api';

const status = (code: number, body?: unknown) => () =>
  body === undefined ? new Response(null, { status: code }) : Response.json(body, { status: code });

describe('API error handling (spec 8.1)', () => {
  it('401: tells the session, shows nothing, and rejects with the ApiError', async () => {
    const api = fakeApi(status(401, { error: 'token expired' }));
    const error = await api.client.GET('/api/cases').catch((e: unknown) => e);
    expect(api.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(api.notices).toEqual([]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, body: { error: 'token expired' }, method: 'GET' });
  });

  it('403: red notification about permission, then rejects', async () => {
    const api = fakeApi(status(403, { error: 'Forbidden' }));
    await expect(api.client.DELETE('/api/cases/{id}', { params: { path: { id: 'c1' } } })).rejects.toMatchObject({ status: 403 });
    expect(api.notices).toEqual([{ type: 'negative', message: 'You do not have permission to perform this action.' }]);
    expect(api.onUnauthorized).not.toHaveBeenCalled();
  });

  it("400: red notification with the server's error field", async () => {
    const api = fakeApi(status(400, { error: 'Case id is already in use', details: {} }));
    await expect(api.client.POST('/api/cases', { body: {} })).rejects.toMatchObject({ status: 400 });
    expect(api.notices).toEqual([{ type: 'negative', message: 'Case id is already in use' }]);
  });

  it('400 without an error field: the generic validation message', async () => {
    const api = fakeApi(status(400, { details: [] }));
    await expect(api.client.POST('/api/cases', { body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(api.notices).toEqual([{ type: 'negative', message: 'Your request was denied. Please validate your input.' }]);
  });

  it('400 with a non-JSON body: the generic validation message, body kept as text', async () => {
    const api = fakeApi(() => new Response('bad', { status: 400 }));
    const error = await api.client.POST('/api/cases', { body: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, body: 'bad' });
    expect(api.notices[0]?.message).toBe('Your request was denied. Please validate your input.');
  });

  it.each([404, 409, 413, 500, 503])('%i: "Your request failed" notification, then rejects', async (code) => {
    const api = fakeApi(status(code, { error: 'whatever' }));
    await expect(api.client.GET('/api/cases')).rejects.toMatchObject({ status: code });
    expect(api.notices).toEqual([{ type: 'negative', message: 'Your request failed. Please try again later.' }]);
  });

  it('network failure: "Your request failed" notification, rejects with status 0 and the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    const api = fakeApi(() => {
      throw cause;
    });
    const error = await api.client.GET('/api/cases').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, cause });
    expect(api.notices).toEqual([{ type: 'negative', message: 'Your request failed. Please try again later.' }]);
  });

  it('a request the caller aborted is rethrown as is, without a notification', async () => {
    const api = fakeApi(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    await expect(api.client.GET('/api/cases')).rejects.toMatchObject({ name: 'AbortError' });
    expect(api.notices).toEqual([]);
  });

  it('success statuses 200–299 pass through with their data', async () => {
    const api = fakeApi(() => Response.json({ items: [], count: 0 }, { status: 200 }));
    const { data } = await api.client.GET('/api/cases');
    expect(data).toEqual({ items: [], count: 0 });
    const created = fakeApi(() => new Response(null, { status: 204 }));
    await expect(created.client.DELETE('/api/cases')).resolves.toMatchObject({ data: undefined });
    expect(api.notices).toEqual([]);
  });
});
