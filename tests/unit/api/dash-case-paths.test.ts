import { describe, expect, it } from 'vitest';
import { dashCasePath, toDashCase } from '../../../src/api/middleware/dash-case-paths';
import { fakeApi } from './fake-api';

describe('dash-case path segments (spec 7.1)', () => {
  it('converts camelCase segments', () => {
    expect(toDashCase('physicalItems')).toBe('physical-items');
    expect(toDashCase('getAllPossibleHits')).toBe('get-all-possible-hits');
    expect(toDashCase('acceptLicenses')).toBe('accept-licenses');
    expect(toDashCase('cases')).toBe('cases');
  });

  it('keeps {param} placeholders and anything that is not a plain identifier', () => {
    expect(toDashCase('{caseId}')).toBe('{caseId}');
    expect(toDashCase('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('3F2504E0-4F89-11D3-9A0C-0305E82C3301');
  });

  it('converts only the template segments of a URL, never the ids filled into it', () => {
    expect(dashCasePath('/api/cases/caseAbc/involvedParties', '/api/cases/{caseId}/involvedParties')).toBe(
      '/api/cases/caseAbc/involved-parties',
    );
  });

  it('sends camelCase template segments dash-cased, with path values untouched', async () => {
    const api = fakeApi();
    await api.client.GET('/api/cases/{caseId}/physicalItems', { params: { path: { caseId: 'labCase7' } } });
    expect(api.path()).toBe('/api/cases/labCase7/physical-items');
  });

  it('keeps the query string and the body when it rewrites', async () => {
    const api = fakeApi();
    await api.client.POST('/api/analyses/{id}/getAllPossibleHits', {
      params: { path: { id: 'a1' }, query: { pageSize: 10 } },
      body: { values: [1, 2] },
    });
    const request = api.last();
    expect(request.url).toBe('https://locus.test/api/analyses/a1/get-all-possible-hits?pageSize=10');
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ values: [1, 2] });
    expect(request.headers.get('Authorization')).toBe('Bearer token-123');
  });

  it('leaves already dash-cased paths alone', async () => {
    const api = fakeApi();
    await api.client.GET('/api/email-templates');
    expect(api.path()).toBe('/api/email-templates');
  });
});
