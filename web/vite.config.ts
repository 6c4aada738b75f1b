import { defineConfig } from 'vitest/config';

// base './': the server may mount the UI under any path, so assets are
// referenced relative to index.html. In development, /api goes to a running
// `macroscope serve` (MACROSCOPE_API, default port 8080).
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 300 },
  server: {
    proxy: { '/api': process.env.MACROSCOPE_API ?? 'http://127.0.0.1:8080' },
  },
  test: { include: ['src/**/*.test.ts'] },
});
