/**
 * Builds the web page (SPEC.md §2 "web page") into `dist/web/`: the staff screens (`index.html`,
 * served at `/app/`) and the patient view (`rx/index.html`, served at the prescription address).
 * Everything is emitted as files under `/assets/` so the page runs under `default-src 'self'`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The server recognises a built page by this manifest.
    manifest: true,
    // Inlined assets would become data: URLs; files keep the CSP simple and cacheable.
    assetsInlineLimit: 0,
    // Every browser with DecompressionStream has module preload; the polyfill is dead code.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        staff: fileURLToPath(new URL('index.html', import.meta.url)),
        patient: fileURLToPath(new URL('rx/index.html', import.meta.url)),
      },
      // Shared code and the one stylesheet get neutral names instead of a module's.
      output: {
        chunkFileNames: 'assets/common-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'assets/app-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
      },
    },
  },
});
