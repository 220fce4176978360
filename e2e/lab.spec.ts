import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchConsole } from './support/console';

// The lab page, checked as data: chart attributes against the engine's
// series, events and summary; linked zoom and hover; playback; keyboard.
// Tests wait on state (data-run-state, whenDone, data-run-id), never on sleeps.

const CHARTS = ['cwnd', 'outstanding', 'throughput', 'queues'] as const;


/** Long's jumbo-frame path (the engine's default before issue 24): a 16 MB window overfills txqueuelen 100, so local congestion is logged. */
const JUMBO = '?v=2&alg=reno&rtt=30&rate=1G&buf=1000&mtu=9000&seed=1';

async function open(page: Page, query = JUMBO): Promise<void> {
  await page.goto(`./${query}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  // Lines become SVG paths once the finished run has painted (deferred).
  await expect(page.locator('figure.chart[data-render="canvas"]')).toHaveCount(0);
}

const chart = (page: Page, id: string) => page.getByTestId(`chart-${id}`);
const json = async <T>(l: Locator, attr: string): Promise<T> => JSON.parse((await l.getAttribute(attr)) ?? 'null') as T;
const runId = (page: Page) => chart(page, 'cwnd').getAttribute('data-run-id');

/** Wait for a run newer than `before` to finish and be on screen. */
async function waitForNewRun(page: Page, before: string | null): Promise<void> {
  await page.waitForFunction(
    (prev) => {
      const fig = document.querySelector('[data-testid="chart-cwnd"]');
      const state = document.documentElement.dataset.runState;
      return fig?.getAttribute('data-run-id') !== prev && (state === 'done' || state === 'error') && fig?.getAttribute('data-render') === 'svg';
    },
    before,
    { timeout: 60_000 },
  );
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
}

test('charts show the engine’s series, domains, markers and summary', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const data = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    const counts: Record<string, number> = {};
    for (const e of window.sawtooth!.events()) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    const max = (a: Float64Array) => a.reduce((m, v) => (Number.isFinite(v) && v > m ? v : m), -Infinity);
    return {
      length: s.length,
      maxCwnd: max(s.flows[0].cwnd_pkts),
      maxTput: max(s.flows[0].throughput_bps),
      counts,
      duration: window.sawtooth!.scenario()!.duration_ms / 1000,
      summary: window.sawtooth!.summary()!,
    };
  });
  expect(data.length).toBeGreaterThan(1000);

  const expected: Record<string, string[]> = {
    cwnd: ['f0.cwnd_pkts', 'f0.ssthresh_pkts'],
    outstanding: ['f0.outstanding_bytes', 'f0.outstanding_avg_bytes', 'f0.outstanding_wavg_bytes', 'f0.outstanding_captured_bytes', 'f0.window_bytes'],
    throughput: ['f0.throughput_bps', 'capacity_bps'],
    queues: ['q.bottleneck_pkts', 'q.buffer_pkts', 'h0.ifq_pkts', 'h0.txqueuelen_pkts', 'h0.ring_pkts'],
  };
  for (const id of CHARTS) {
    const c = chart(page, id);
    await expect(c).toHaveAttribute('data-render', 'svg');
    const ids = await json<string[]>(c, 'data-series-ids');
    expect(ids).toEqual(expected[id]);
    const points = await json<Record<string, number>>(c, 'data-point-counts');
    for (const s of ids) expect(points[s]).toBe(/_pkts$|_bytes$|_bps$/.test(s) && !['f0.window_bytes', 'capacity_bps', 'q.buffer_pkts', 'h0.txqueuelen_pkts'].includes(s) ? data.length : 2);
    expect(await json<number[]>(c, 'data-x-domain')).toEqual([0, data.duration]);
    // Every drawn series is an SVG path with vertices.
    for (const s of ids.filter((x) => points[x] > 2)) {
      const d = (await c.locator(`path.line[data-series="${s}"]`).getAttribute('d')) ?? '';
      expect(d.startsWith('M')).toBe(true);
    }
    // Markers count every engine event of their kinds.
    const markers = await json<Record<string, number>>(c, 'data-marker-counts');
    for (const k of ['network_loss', 'local_congestion', 'fast_retransmit', 'timeout', 'ecn_mark']) expect(markers[k]).toBe(data.counts[k] ?? 0);
  }
  const cwndY = await json<number[]>(chart(page, 'cwnd'), 'data-y-domain');
  expect(cwndY[0]).toBe(0);
  expect(cwndY[1]).toBeGreaterThanOrEqual(data.maxCwnd);
  expect(cwndY[1]).toBeLessThan(data.maxCwnd * 1.5);
  const tputY = await json<number[]>(chart(page, 'throughput'), 'data-y-domain');
  // The throughput axis holds the capacity and the data up to 1.25 × capacity (delivery bursts above are clipped).
  expect(tputY[1]).toBeGreaterThanOrEqual(data.summary.capacity_bps / 1e6);
  expect(tputY[1]).toBeLessThanOrEqual((1.25 * data.summary.capacity_bps) / 1e6 * 1.2);
  // The jumbo run has local-congestion events (txqueuelen 100, 16 MB window): drawn as markers.
  expect(data.counts.local_congestion ?? 0).toBeGreaterThan(0);
  expect(await chart(page, 'cwnd').locator('path.marker-local_congestion').count()).toBeGreaterThan(0);

  // The summary table shows the engine's numbers.
  const sum = data.summary;
  await expect(page.getByTestId('summary-throughput')).toHaveText((sum.total_throughput_bps / 1e6).toFixed(1));
  expect(Number(await page.getByTestId('summary-utilisation').getAttribute('data-value'))).toBe(sum.utilisation);
  expect(Number(await page.getByTestId('summary-jain').getAttribute('data-value'))).toBe(sum.jain_index);
  for (const f of sum.flows) {
    const row = page.getByTestId(`summary-flow-${f.flow}`);
    for (const field of ['mean_throughput_bps', 'share', 'drops', 'local_congestion_events', 'retransmits'] as const) {
      expect(Number(await row.locator(`[data-field="${field}"]`).getAttribute('data-value'))).toBe(f[field]);
    }
    const t90 = await row.locator('[data-field="time_to_90pct_s"]').getAttribute('data-value');
    expect(t90 === '' ? null : Number(t90)).toBe(f.time_to_90pct_s);
  }
  await expect(page.getByTestId('summary-flow-0').locator('[data-field="mean_throughput_bps"]')).toHaveText((sum.flows[0].mean_throughput_bps / 1e6).toFixed(1));
  expect(problems).toEqual([]);
});

test('two-to-one: two flows, their sum and the capacity; fairness in the summary', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const before = await runId(page);
  await page.getByTestId('topology-two_to_one').check();
  await waitForNewRun(page, before);
  const s = await page.evaluate(() => window.sawtooth!.scenario()!);
  expect(s.hosts.map((h) => h.flows.length)).toEqual([1, 1]);
  const ids = await json<string[]>(chart(page, 'throughput'), 'data-series-ids');
  expect(ids).toEqual(['f0.throughput_bps', 'f1.throughput_bps', 'sum.throughput_bps', 'capacity_bps']);
  expect(await json<string[]>(chart(page, 'queues'), 'data-series-ids')).toContain('h1.ifq_pkts');
  const summary = await page.evaluate(() => window.sawtooth!.summary()!);
  expect(summary.flows).toHaveLength(2);
  await expect(page.getByTestId('summary-jain')).toHaveText(summary.jain_index.toFixed(3));
  await expect(page.getByTestId('summary-flow-1')).toBeVisible();
  // The previous run stays as a faint ghost.
  expect((await json<string[]>(chart(page, 'cwnd'), 'data-ghost-series-ids')).length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test('structural SVG snapshot of the cwnd chart (geometry normalised)', async ({ page }) => {
  await open(page);
  const svg = await chart(page, 'cwnd').evaluate((fig) => {
    const root = fig.querySelector('svg.chart-svg')!;
    const GEOMETRY = /^(d|x|y|x1|x2|y1|y2|width|height|transform|data-points|data-count|cx|cy|r)$/;
    const lines: string[] = [];
    const walk = (el: Element, depth: number) => {
      const attrs = Array.from(el.attributes)
        .filter((a) => a.name !== 'id' && a.name !== 'clip-path')
        .map((a) => (GEOMETRY.test(a.name) ? `${a.name}=#` : `${a.name}="${a.value}"`))
        .sort();
      const children = Array.from(el.children);
      const text = children.length === 0 ? (el.textContent ?? '').trim() : '';
      const label = el.closest('.axis') && !el.classList.contains('axis-label') && /^[-\d.,]+$/.test(text) ? '#' : text;
      lines.push(`${'  '.repeat(depth)}<${el.tagName}${attrs.length ? ' ' + attrs.join(' ') : ''}>${label ? ' ' + label : ''}`);
      // Repeated siblings (ticks, markers) collapse to one line with a count.
      let i = 0;
      while (i < children.length) {
        const c = children[i];
        const key = `${c.tagName}.${c.getAttribute('class') ?? ''}`;
        let j = i;
        while (j < children.length && `${children[j].tagName}.${children[j].getAttribute('class') ?? ''}` === key && (c.closest('.axis, .markers') !== null)) j++;
        if (j - i > 1) {
          walk(c, depth + 1);
          lines.push(`${'  '.repeat(depth + 1)}… ×${j - i} <${key}>`);
          i = j;
        } else {
          walk(c, depth + 1);
          i++;
        }
      }
    };
    walk(root, 0);
    return lines.join('\n');
  });
  expect(svg).toMatchSnapshot('chart-cwnd-structure.txt');
});

test('a slider moved with the keyboard changes the run', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const before = await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps);
  const rtt = page.getByLabel('RTT slider');
  await rtt.focus();
  let id = await runId(page);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await waitForNewRun(page, id);
  await page.waitForFunction(() => window.sawtooth!.scenario()!.rtt_ms === 33);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(page.getByLabel('RTT value')).toHaveValue('33');
  const after = await page.evaluate(() => window.sawtooth!.summary()!.total_throughput_bps);
  expect(after).not.toBe(before);

  // The window slider steps along its log ladder (16 MB → 14 MB), and the BDP read-out follows.
  const bdpBefore = await page.getByTestId('bdp-readout').getAttribute('data-window-pkts');
  id = await runId(page);
  await page.getByLabel('Window slider').focus();
  await page.keyboard.press('ArrowLeft');
  await waitForNewRun(page, id);
  await page.waitForFunction(() => window.sawtooth!.scenario()!.hosts[0].flows[0].window_bytes === 14 * 2 ** 20);
  await expect(page.getByLabel('Window value')).toHaveValue('14 MB');
  expect(await page.getByTestId('bdp-readout').getAttribute('data-window-pkts')).not.toBe(bdpBefore);
  expect(problems).toEqual([]);
});

test('zoom on one chart: every chart follows (brush and keyboard)', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const overlay = chart(page, 'cwnd').locator('rect.overlay');
  await overlay.scrollIntoViewIfNeeded();
  const box = (await overlay.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const d0 = await json<number[]>(chart(page, 'cwnd'), 'data-x-domain');
  expect(d0[0]).toBeCloseTo(5, 0);
  expect(d0[1]).toBeCloseTo(10, 0);
  for (const id of CHARTS) expect(await json<number[]>(chart(page, id), 'data-x-domain')).toEqual(d0);
  const total = await page.evaluate(() => window.sawtooth!.series()!.length);
  const zoomed = await json<Record<string, number>>(chart(page, 'throughput'), 'data-point-counts');
  expect(zoomed['f0.throughput_bps']).toBeLessThan(total * 0.3);
  expect(zoomed['f0.throughput_bps']).toBeGreaterThan(total * 0.2);

  // Keyboard on another chart: + zooms in around the centre, 0 resets, for all.
  await chart(page, 'queues').focus();
  await page.keyboard.press('+');
  const d1 = await json<number[]>(chart(page, 'queues'), 'data-x-domain');
  expect(d1[1] - d1[0]).toBeCloseTo((d0[1] - d0[0]) / 2, 6);
  for (const id of CHARTS) expect(await json<number[]>(chart(page, id), 'data-x-domain')).toEqual(d1);
  await page.keyboard.press('0');
  for (const id of CHARTS) expect(await json<number[]>(chart(page, id), 'data-x-domain')).toEqual([0, 20]);
  expect(problems).toEqual([]);
});

test('hovering one chart shows a cursor with values on all', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const overlay = chart(page, 'throughput').locator('rect.overlay');
  await overlay.scrollIntoViewIfNeeded();
  const box = (await overlay.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await expect(chart(page, 'throughput')).toHaveAttribute('data-cursor-t', /^\d/);
  const t = await chart(page, 'throughput').getAttribute('data-cursor-t');
  expect(Number(t)).toBeGreaterThan(9);
  expect(Number(t)).toBeLessThan(11);
  for (const id of CHARTS) {
    await expect(chart(page, id)).toHaveAttribute('data-cursor-t', t!);
    await expect(chart(page, id).locator('line.cursor')).toHaveCount(1);
    await expect(page.getByTestId(`chart-${id}-tip`)).toBeVisible();
  }
  // The read-out is the sample at the cursor.
  const expected = await page.evaluate((tt) => {
    const s = window.sawtooth!.series()!;
    const i = s.t.findIndex((v) => Math.abs(v - Number(tt)) < 1e-9);
    return { cwnd: s.flows[0].cwnd_pkts[i], ifq: s.hosts[0].ifq_pkts[i] };
  }, t);
  const cwnd = Number(await page.getByTestId('chart-cwnd-tip').locator('[data-series="f0.cwnd_pkts"]').getAttribute('data-value'));
  expect(cwnd).toBeCloseTo(expected.cwnd, 9);
  const ifq = Number(await page.getByTestId('chart-queues-tip').locator('[data-series="h0.ifq_pkts"]').getAttribute('data-value'));
  expect(ifq).toBeCloseTo(expected.ifq, 9);
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height + 60);
  for (const id of CHARTS) await expect(chart(page, id).locator('line.cursor')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('playback: play, pause, step, scrub and back to live', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const bar = page.getByTestId('playback');
  const total = await page.evaluate(() => window.sawtooth!.series()!.length);
  await page.getByTestId('speed').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight'); // 1× → 10×
  await expect(bar.locator('output')).toHaveText('10×');
  await page.getByTestId('play').click();
  await expect(bar).toHaveAttribute('data-status', 'playing');
  // Time advances and the charts grow with it.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="playback"]')!.getAttribute('data-play-t')) > 2);
  await page.getByTestId('play').click();
  await expect(bar).toHaveAttribute('data-status', 'paused');
  const t = Number(await bar.getAttribute('data-play-t'));
  expect(t).toBeGreaterThan(2);
  expect(t).toBeLessThan(20);
  const counts = await json<Record<string, number>>(chart(page, 'cwnd'), 'data-point-counts');
  const shown = await page.evaluate((tt) => window.sawtooth!.series()!.t.filter((v) => v <= tt).length, t);
  expect(counts['f0.cwnd_pkts']).toBe(shown);
  expect(shown).toBeLessThan(total);
  await page.getByTestId('step').click();
  expect(Number(await bar.getAttribute('data-play-t'))).toBeCloseTo(t + 0.2, 6);
  await page.getByTestId('scrub').fill('5');
  expect(Number(await bar.getAttribute('data-play-t'))).toBeCloseTo(5, 6);
  const at5 = await page.evaluate(() => window.sawtooth!.series()!.t.filter((v) => v <= 5).length);
  await expect(chart(page, 'cwnd')).toHaveAttribute('data-point-counts', JSON.stringify({ 'f0.cwnd_pkts': at5, 'f0.ssthresh_pkts': at5 }));
  await page.getByTestId('live').click();
  await expect(bar).toHaveAttribute('data-status', 'live');
  expect((await json<Record<string, number>>(chart(page, 'cwnd'), 'data-point-counts'))['f0.cwnd_pkts']).toBe(total);
  expect(problems).toEqual([]);
});

test('field errors: typed values and engine rejections show next to the field', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.getByLabel('Window value').fill('12 KB');
  await expect(page.getByTestId('window-error')).toContainText('between 64 KB and 512 MB');
  await expect(page.getByLabel('Window value')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Window value').fill('8M');
  await expect(page.getByTestId('window-error')).toHaveCount(0);
  await page.waitForFunction(() => window.sawtooth!.scenario()!.hosts[0].flows[0].window_bytes === 8 * 2 ** 20);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');

  // A rule only the engine knows about the combination (a flow starting after
  // the end of the run): its error shows next to the flow's start time.
  let id = await runId(page);
  await page.getByLabel('Flow 0 start time value').fill('5');
  await waitForNewRun(page, id);
  await page.getByLabel('Duration value').fill('2');
  await page.waitForFunction(() => document.documentElement.dataset.runState === 'error');
  expect(await page.evaluate(() => window.sawtooth!.error()?.kind)).toBe('validation');
  await expect(page.getByTestId('flow0-start-error')).toContainText('hosts[0].flows[0].start_ms = 5000');
  await expect(page.getByTestId('flow0-start-error')).toContainText('must be between 0 and 2000 ms');
  await expect(page.getByTestId('run-error')).toContainText('hosts[0].flows[0].start_ms');
  id = await runId(page);
  await page.getByLabel('Duration value').fill('20');
  await waitForNewRun(page, id);
  await expect(page.getByTestId('flow0-start-error')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('algorithm parameters come from the catalogue; the explainer typesets its rules', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  let id = await runId(page);
  await page.getByTestId('flow0-algorithm').selectOption('scalable');
  await waitForNewRun(page, id);
  await expect(page.getByTestId('explainer')).toHaveAttribute('data-algorithm', 'scalable');
  await page.getByTestId('explainer').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('explainer').locator('.katex').first()).toBeVisible();
  // Scalable's a and b are up front, typed as the papers write them.
  id = await runId(page);
  await page.getByLabel('Flow 0 Increase a value').fill('1/50');
  await waitForNewRun(page, id);
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.hosts[0].flows[0])).toMatchObject({ algorithm: 'scalable', params: { a: 0.02 } });
  await expect(page.getByLabel('Flow 0 Decrease b slider')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a run that went wrong is flagged beside its summary, in the engine’s words', async ({ page }) => {
  const problems = watchConsole(page);
  // 20 % random loss: the flow spends the run waiting for timeouts.
  await open(page, '?seed=1&loss=0.2&dur=30');
  const flags = page.getByTestId('run-flags');
  await expect(flags).toBeVisible();
  const engine = await page.evaluate(() => window.sawtooth!.summary()!.flags ?? []);
  expect(engine.length).toBeGreaterThan(0);
  const items = flags.locator('li');
  await expect(items).toHaveCount(engine.length);
  for (const [i, f] of engine.entries()) {
    await expect(items.nth(i)).toHaveText(f.text);
    await expect(items.nth(i)).toHaveAttribute('data-kind', f.kind);
  }
  expect(engine.some((f) => f.kind === 'timeouts' && f.text.includes('loss_rate drops 20 %'))).toBe(true);
  // An ordinary run carries none.
  await open(page, '?seed=1&dur=5');
  await expect(page.getByTestId('run-flags')).toHaveCount(0);
  expect(problems).toEqual([]);
});
