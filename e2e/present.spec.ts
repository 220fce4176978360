import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './support/console';
import { startParentPage, type ParentPage } from './support/parentPage';

// Presentation mode and exports for slides (issue 14): full screen with the
// projector profile and big type, keyboard shortcuts for playback, a guided
// lab one screen at a time; the playback as a WebM video of the requested
// size and length, and slide-sized PNGs.

async function done(page: Page): Promise<string> {
  return page.evaluate(() => window.sawtooth!.whenDone());
}

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

const playT = (page: Page) => page.getByTestId('playback').getAttribute('data-play-t').then(Number);

test('presentation mode: projector colours, big type, the charts fill the screen, shortcuts play, pause, step and reset; axe passes', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?v=2&alg=reno&rtt=30&dur=3&seed=1');
  expect(await done(page)).toBe('done');
  const labFont = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.axis text')!).fontSize));

  // The header's Present button, by keyboard.
  await page.getByTestId('present').focus();
  await page.keyboard.press('Enter');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-present', '1');
  await expect(html).toHaveAttribute('data-profile', 'projector');
  await expect(html).toHaveAttribute('data-fit-columns', /\d/);
  await expect(page.getByTestId('present-bar')).toBeVisible();
  await expect(page.getByTestId('playback')).toBeVisible();
  await expect(page.getByTestId('share-panel')).toBeHidden();
  // Big type, and nothing scrolls.
  const fit = await page.evaluate(() => {
    const s = document.scrollingElement!;
    return { sw: s.scrollWidth, sh: s.scrollHeight, tick: parseFloat(getComputedStyle(document.querySelector('.axis text')!).fontSize) };
  });
  expect(fit.sw).toBeLessThanOrEqual(1280);
  expect(fit.sh).toBeLessThanOrEqual(720);
  expect(fit.tick).toBeGreaterThan(labFont);
  // Thick lines.
  expect(await page.locator('[data-testid="chart-cwnd"] path.line').first().evaluate((p) => parseFloat(getComputedStyle(p).strokeWidth))).toBeGreaterThanOrEqual(3);

  // Shortcuts: Space plays and pauses, → and ← step, Home resets to 0 s and plays
  // (at 0.1× real time, so every state is there long enough to read).
  await page.getByTestId('speed').fill('0');
  await expect(page.getByTestId('speed')).toHaveAttribute('aria-valuetext', '0.1× real time');
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press(' ');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'playing');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="playback"]')!.getAttribute('data-play-t')) > 0.02);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'paused');
  const paused = await playT(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playT(page)).toBeGreaterThan(paused);
  const stepped = await playT(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playT(page)).toBeLessThan(stepped);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'playing');
  await expect.poll(() => playT(page)).toBeLessThan(paused);
  await page.keyboard.press('k');
  await expect(page.getByTestId('playback')).toHaveAttribute('data-status', 'paused');

  // The shortcuts are listed; axe finds nothing in the projector theme, with the list open.
  await page.locator('.present-keys summary').click();
  await expect(page.getByTestId('present-keys')).toContainText('Space');
  expect(await axe(page)).toEqual([]);

  // Exit goes back to the page as it was.
  await page.getByTestId('present-exit').click();
  await expect(html).not.toHaveAttribute('data-present', '1');
  await expect(page.getByTestId('share-panel')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a presentation link opens in presentation mode; an embed in the projector theme passes axe', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('./?v=2&alg=cubic&dur=2&seed=1&present=1&charts=cwnd,queues&controls=rtt');
  expect(await done(page)).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'projector');
  await expect(page.locator('[data-control-id]:visible')).toHaveCount(1);
  // Space on the page plays; in the RTT field it is typed.
  await page.locator('[data-control-id="rtt"]').getByRole('textbox').focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('playback')).not.toHaveAttribute('data-status', 'playing');
  expect(await axe(page)).toEqual([]);

  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto('./?v=2&alg=reno&dur=2&seed=1&embed=1&theme=projector&controls=rtt,window,playback');
  expect(await done(page)).toBe('done');
  expect(await axe(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a guided lab in presentation mode: question → prediction → run → paper, one screen at a time', async ({ page }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?lab=txqueuelen&present=1');
  await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
  const stepper = page.getByTestId('lab-stepper');
  const guide = page.locator('.lab-guide');
  await expect(stepper).toHaveAttribute('data-step', 'question');
  await expect(guide.locator('h3').first()).toBeVisible();
  await expect(page.getByTestId('lab-prediction')).toBeHidden();
  await expect(page.getByTestId('lab-run')).toBeHidden();

  await page.keyboard.press('ArrowRight');
  await expect(stepper).toHaveAttribute('data-step', 'prediction');
  await expect(page.getByTestId('lab-prediction')).toBeVisible();
  await expect(guide.locator('h3').first()).toBeHidden();
  // Typing a prediction does not turn the page.
  await page.getByTestId('lab-prediction').fill('');
  await page.getByTestId('lab-prediction').pressSequentially('no change');
  await expect(stepper).toHaveAttribute('data-step', 'prediction');

  await page.getByTestId('screen-next').click();
  await expect(stepper).toHaveAttribute('data-step', 'run');
  await expect(page.getByTestId('lab-run')).toBeVisible();
  await expect(page.getByTestId('lab-prediction')).toBeHidden();
  await expect(page.getByTestId('paper-table')).toBeHidden();

  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('PageDown');
  await expect(stepper).toHaveAttribute('data-step', 'paper');
  await expect(page.getByTestId('paper-table')).toBeVisible();
  await expect(page.getByTestId('lab-run')).toBeHidden();
  // The paper beside the simulation: side by side.
  const results = (await page.locator('.lab-detail > .lab-results').boundingBox())!;
  const paper = (await page.locator('.lab-detail > .lab-paper').boundingBox())!;
  expect(paper.x).toBeGreaterThanOrEqual(results.x + results.width - 1);
  await expect(page.getByTestId('screen-next')).toBeDisabled();
  expect(await axe(page)).toEqual([]);

  await page.keyboard.press('p');
  await expect(stepper).toHaveAttribute('data-step', 'run');
  await page.locator('.stepper-screen[data-screen="question"]').click();
  await expect(stepper).toHaveAttribute('data-step', 'question');
  expect(problems).toEqual([]);
});

let parent: ParentPage;
test.beforeAll(async () => {
  parent = await startParentPage();
});
test.afterAll(async () => {
  await parent.close();
});

test('the playback as WebM at the chosen size and speed, and slide-sized PNGs', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./?v=2&alg=reno&rtt=30&dur=2&seed=1');
  expect(await done(page)).toBe('done');
  // 1920×1080 at 2× real time: a 2 s run plays for 1 s.
  await page.getByTestId('slide-size').selectOption({ label: '1920 × 1080' });
  await page.getByTestId('slide-speed').selectOption('2');
  await expect(page.getByTestId('export-video')).toContainText('1 s');
  const [video] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('export-video').click()]);
  expect(video.suggestedFilename()).toMatch(/^sawtooth-reno-rtt30-seed1-playback-1920x1080-2x\.webm$/);
  const webm = readFileSync((await video.path())!).toString('base64');

  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-throughput-slide-png').click()]);
  expect(png.suggestedFilename()).toBe('sawtooth-reno-rtt30-seed1-throughput-1920x1080.png');
  const pngBytes = readFileSync((await png.path())!);
  // PNG signature, then IHDR's width and height.
  expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
  expect([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)]).toEqual([1920, 1080]);

  // Decode the video in a page of its own (the app's CSP allows no blob: media).
  await page.goto(parent.set('<!doctype html><html lang="en"><head><title>check</title></head><body></body></html>'));
  const info = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const v = document.createElement('video');
    v.muted = true;
    v.src = URL.createObjectURL(new Blob([bytes], { type: 'video/webm' }));
    document.body.append(v);
    await new Promise((resolve, reject) => {
      v.onloadedmetadata = resolve;
      v.onerror = () => reject(new Error(`video error ${v.error?.code}`));
    });
    const duration = v.duration;
    // A frame from the middle is a chart, not a blank: many distinct colours.
    v.currentTime = duration / 2;
    await new Promise((resolve) => (v.onseeked = resolve));
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 270;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(v, 0, 0, 480, 270);
    const data = ctx.getImageData(0, 0, 480, 270).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 16) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return { width: v.videoWidth, height: v.videoHeight, duration, colours: colours.size };
  }, webm);
  expect(info.width).toBe(1920);
  expect(info.height).toBe(1080);
  expect(info.duration).toBeGreaterThan(0.95);
  expect(info.duration).toBeLessThan(1.05);
  expect(info.colours).toBeGreaterThan(20);
  expect(problems).toEqual([]);
});
