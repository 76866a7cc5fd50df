import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';

export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest's default is one file at a time on 2 cores (cores − 1), yet most files wait on PostgreSQL, PGlite's
    // thread or child processes: two at a time fill that idle time (CI ran the unit files for 44 minutes one at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx'],
          setupFiles: ['tests/component/setup.ts'],
          // Rendering a grid in jsdom took over the 5 s default beside another file on a loaded machine.
          testTimeout: 30_000,
        },
      },
    ],
    coverage: { include: ['core/**', 'server/**', 'machines/**', 'src/**'] },
  },
});
