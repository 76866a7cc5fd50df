import { defineConfig } from 'vitest/config';

// End-to-end: real server on a free port, real headless Chromium (tests/e2e/global-setup.ts).
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
