// The console and /docs, built by `make build` into dist/console and served by the API process.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  // Under /console/, beside /console/api: no clash with the APIs' own paths.
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: here('../../../dist/console'),
    emptyOutDir: true,
    rollupOptions: { input: { console: here('index.html'), docs: here('docs/index.html') } },
    chunkSizeWarningLimit: 4096,
  },
});
