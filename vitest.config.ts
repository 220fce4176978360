import { defineConfig } from 'vitest/config';

// Unit tests: pure functions and the worker protocol (with a mock engine).
// They never need the wasm package or a browser.
export default defineConfig({
  test: {
    include: ['app/src/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
