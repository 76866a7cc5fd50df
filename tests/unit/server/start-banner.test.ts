import { describe, expect, it } from 'vitest';
import { colleaguesLines, startBanner } from '../../../server/start-banner';
import { testConfig } from '../../helpers/app';

const seeded = { createdAdmin: { email: 'admin@locus.local', password: 'Secret-1234', generated: true } };

describe('the npm start banner', () => {
  it('tells that colleagues on other computers need PUBLIC_URL set to the server’s real name, with the command', () => {
    const banner = startBanner(testConfig({ PUBLIC_URL: 'http://localhost:8080' }), seeded);
    expect(banner).toContain('Locus is running at http://localhost:8080');
    expect(banner).toContain("Colleagues on other computers: set PUBLIC_URL to this server's real name, or they are redirected to their own localhost:");
    expect(colleaguesLines(testConfig({ PUBLIC_URL: 'http://127.0.0.1:9000' }), 'lab-server')).toEqual([
      "Colleagues on other computers: set PUBLIC_URL to this server's real name, or they are redirected to their own localhost:",
      '  PUBLIC_URL=http://lab-server:9000 npm start',
    ]);
  });

  it('says nothing of it when PUBLIC_URL already names the server', () => {
    const banner = startBanner(testConfig({ PUBLIC_URL: 'https://locus.lab.example' }), seeded);
    expect(banner).not.toContain('Colleagues');
    expect(banner).toContain('Sign in as admin@locus.local with the password Secret-1234');
  });
});
