import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy, precacheServiceWorker } from './vite-plugins/share.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The Vite root is app/ (app/index.html); static files live in public/ and the
// production build goes to dist/ at the repository root.
export default defineConfig({
  root: here('./app'),
  publicDir: here('./public'),
  // Relative URLs everywhere: the build works under any base path (a
  // sub-path of a static host, a file server) — see docs/TEST-SURFACE.md.
  base: './',
  // CSP meta tag + preview header; sw.js precaching the build (offline use).
  plugins: [react(), contentSecurityPolicy(), precacheServiceWorker()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
  },
  worker: {
    format: 'es',
  },
  server: {
    port: 5173,
    strictPort: true,
  },
  preview: {
    port: 4173,
    strictPort: true,
  },
});
