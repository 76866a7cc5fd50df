import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The SPA is built into build/spa and served by the Fastify server (server/http/spa.ts).
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'build/spa', emptyOutDir: true, sourcemap: true },
  server: {
    // `npm run dev` (Vite) talks to a server started with `npm run dev:server`.
    proxy: { '/api': 'http://localhost:8080', '/oidc': 'http://localhost:8080' },
  },
});
