import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

// E2E tests run against the production build (dist/, made by `vite build`)
// served by `vite preview`, in Debian's Chromium. Playwright never downloads a
// browser here: set SAWTOOTH_CHROMIUM to use another binary.
const PORT = Number(process.env.SAWTOOTH_E2E_PORT ?? 4174);
const CHROMIUM = process.env.SAWTOOTH_CHROMIUM ?? '/usr/bin/chromium';
// The build directory to serve (Vite's root is app/, so a relative path would
// be read from there): dist/ at the repository root unless SAWTOOTH_DIST says
// otherwise (several people testing at once on one machine).
const DIST = process.env.SAWTOOTH_DIST ?? fileURLToPath(new URL('./dist', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${DIST}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
