import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';

// PUBLIC_URL http://localhost:8080 (testConfig); the redirect is on, as in server.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ redirectToPublicUrl: true });
});
afterAll(() => t.close());

const get = (url: string, host: string) => t.app.inject({ method: 'GET', url, headers: { host } });

describe('one address: PUBLIC_URL', () => {
  it('sends a page opened at 127.0.0.1 or a LAN name to PUBLIC_URL with the same path and query', async () => {
    for (const host of ['127.0.0.1:8080', 'locus-pc.lan:8080', 'localhost:9090']) {
      const res = await get('/all/hits/published?caseId=new&x=%20y', host);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('http://localhost:8080/all/hits/published?caseId=new&x=%20y');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await get('/', '192.168.1.20:8080')).headers.location).toBe('http://localhost:8080/');
  });

  it('redirects the sign-in provider and the API too (the issuer and the tokens belong to PUBLIC_URL)', async () => {
    const discovery = await get('/oidc/.well-known/openid-configuration', '127.0.0.1:8080');
    expect(discovery.statusCode).toBe(302);
    expect(discovery.headers.location).toBe('http://localhost:8080/oidc/.well-known/openid-configuration');
    expect((await get('/api/me', '127.0.0.1:8080')).statusCode).toBe(302);
    // A write keeps its method and body when it follows the redirect.
    const post = await t.app.inject({ method: 'POST', url: '/api/accept-licenses', headers: { host: '127.0.0.1:8080' } });
    expect(post.statusCode).toBe(307);
    expect(post.headers.location).toBe('http://localhost:8080/api/accept-licenses');
  });

  it('answers the health probe at any host (probes use an internal address)', async () => {
    const res = await get('/api/health', '10.0.0.7:8080');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('serves a request for PUBLIC_URL itself, whatever the case of the name', async () => {
    expect((await get('/api/health', 'localhost:8080')).statusCode).toBe(200);
    expect((await get('/api/me', 'LOCALHOST:8080')).statusCode).toBe(401);
  });

  it('takes the default port as part of the name (https://locus.example.org is locus.example.org:443)', async () => {
    const app = await createTestApp({ redirectToPublicUrl: true, config: testConfig({ PUBLIC_URL: 'https://locus.example.org' }) });
    try {
      for (const host of ['locus.example.org', 'locus.example.org:443']) {
        expect((await app.app.inject({ url: '/api/me', headers: { host } })).statusCode).toBe(401);
      }
      const plain = await app.app.inject({ url: '/cases?page=2', headers: { host: 'locus.example.org:8080' } });
      expect(plain.statusCode).toBe(302);
      expect(plain.headers.location).toBe('https://locus.example.org/cases?page=2');
    } finally {
      await app.close();
    }
  });
});
