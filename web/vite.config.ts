import { defineConfig } from 'vitest/config';

// The Rust server serves web/dist and answers /api and /ws on the same origin; in dev, Vite
// forwards those paths to a server on TTAKJI_SERVER (default http://127.0.0.1:8080).
const server = process.env.TTAKJI_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: true,
  },
  server: {
    proxy: {
      '/api': server,
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
