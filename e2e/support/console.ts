// Every spec collects console errors, uncaught page errors and dialogs; a
// test fails if any appear that it did not expect.

import type { Page } from '@playwright/test';

export interface WatchOptions {
  /** Console errors a test provokes on purpose (a deliberate trap logs the Rust panic). */
  allow?: RegExp;
}

export function watchConsole(page: Page, options: WatchOptions = {}): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !(options.allow && options.allow.test(msg.text()))) problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return problems;
}

/** The console noise of a deliberate engine trap or worker crash. */
export const DELIBERATE_CRASH = /deliberate|panicked|unreachable|RuntimeError/;
