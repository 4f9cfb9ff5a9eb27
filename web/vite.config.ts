import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Built by `npm run build:web` (npm install runs it through `prepare`); src/http/web-app.ts serves dist/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or data: URLs for scripts: the pages' CSP allows only files from this origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
