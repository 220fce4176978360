import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { expect, test, type Frame, type Page } from '@playwright/test';
import type { EngineEvent, RunState, RunSummary } from '../docs/sawtooth-test-surface';

// The public test surface, checked as an outside test author sees it: this
// suite uses only docs/TEST-SURFACE.md (read at test time: its lists of
// event kinds, chart attributes, series and control ids are what the page
// is checked against, so anything new and undocumented fails here), the
// declarations in docs/sawtooth-test-surface.d.ts and @playwright/test.
// Nothing from app/. Tests wait on documented state (whenDone, runId,
// data-run-state, data-render), never on time.

const DOC = readFileSync(new URL('../docs/TEST-SURFACE.md', import.meta.url), 'utf8');
const DTS = readFileSync(new URL('../docs/sawtooth-test-surface.d.ts', import.meta.url), 'utf8');

// ---------------------------------------------------------------- reading TEST-SURFACE.md

/** The text under the first heading matching `heading`, up to the next heading of the same or a higher level. */
function section(heading: RegExp): string {
  const lines = DOC.split('\n');
  const i = lines.findIndex((l) => /^#{1,6} /.test(l) && heading.test(l));
  if (i < 0) throw new Error(`TEST-SURFACE.md has no heading matching ${heading}`);
  const level = /^(#+)/.exec(lines[i])![1].length;
  const end = lines.findIndex((l, j) => j > i && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(i + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the first table in `text`, as cells (header and separator left out). */
function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  if (start < 0) throw new Error('no table');
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(lines[i].slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The backticked names in the first column of the section's first table. */
function documented(heading: RegExp): string[] {
  return tableRows(section(heading)).flatMap((r) => codes(r[0]));
}

/** A documented id pattern (`flow<i>-param-<param>`) as a regular expression. */
function pattern(id: string): RegExp {
  const re = id
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/<(i|h)>/g, '\\d+')
    .replace(/<[a-z]+>/g, '[A-Za-z0-9_]+');
  return new RegExp(`^${re}$`);
}

const matchesAny = (ids: string[]) => (name: string) => ids.some((id) => pattern(id).test(name));

// ---------------------------------------------------------------- page helpers

/** Open a scenario link and wait until its run is finished and drawn at rest. */
async function open(page: Page, query: string): Promise<void> {
  await page.goto(`./?${query}`);
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');
  await expect(page.locator('figure[data-chart][data-render="canvas"]')).toHaveCount(0);
}

const json = async <T>(page: Page, testId: string, attr: string): Promise<T> =>
  JSON.parse((await page.getByTestId(testId).getAttribute(attr)) ?? 'null') as T;

async function events(page: Page): Promise<EngineEvent[]> {
  return page.evaluate(() => window.sawtooth!.events());
}

// A lossy run: Reno through a 300-packet buffer at 100 Mb/s.
const LOSSY = 'v=2&alg=reno&rtt=40&rate=100M&buf=300&txq=100&win=8M&mtu=1500&dur=10&seed=7';

// ---------------------------------------------------------------- the contract

test('contract version: the page, the declarations and TEST-SURFACE.md agree; every member is documented', async ({ page }) => {
  const inDoc = /\*\*Contract version: (\d+)\*\*/.exec(DOC.split('\n').slice(0, 6).join('\n'));
  expect(inDoc, 'TEST-SURFACE.md states its contract version at the top').not.toBeNull();
  const inDts = /export type ContractVersion = (\d+);/.exec(DTS);
  expect(inDts).not.toBeNull();
  expect(Number(inDts![1])).toBe(Number(inDoc![1]));
  // The version table lists it.
  expect(tableRows(section(/^## 10\. Contract versions/)).map((r) => r[0])).toContain(inDoc![1]);

  await open(page, 'v=2&alg=reno&dur=1&seed=1');
  const page_ = await page.evaluate(() => {
    const s = window.sawtooth!;
    return { version: s.contractVersion, frozen: Object.isFrozen(s), members: Object.keys(s) };
  });
  expect(page_.version).toBe(Number(inDoc![1]));
  expect(page_.frozen).toBe(true);
  const members = documented(/^## 3\. `window\.sawtooth`/).map((m) => m.replace(/\(.*$/, ''));
  expect([...page_.members].sort()).toEqual([...members].sort());
});

test('events: every kind the engine emits is documented, and every documented kind is emitted', async ({ page }) => {
  const rows = tableRows(section(/^### 3\.2 Event kinds/));
  const kinds = rows.flatMap((r) => codes(r[0]));
  for (const k of ['network_loss', 'local_congestion', 'fast_retransmit', 'timeout', 'ecn_mark', 'entered_open', 'entered_disorder', 'entered_cwr', 'entered_recovery', 'entered_loss'])
    expect(kinds, `${k} is documented`).toContain(k);
  const code = Object.fromEntries(rows.map((r) => [codes(r[0])[0], Number(r[1])]));
  const markerKinds = rows.filter((r) => /^yes/.test(r[3])).map((r) => codes(r[0])[0]);

  const runs = [
    // Random loss without SACK: losses, fast retransmits, timeouts.
    'v=2&alg=reno&rtt=20&rate=100M&buf=20&loss=0.1&sack=0&dur=5&seed=3',
    // A NIC slower than the bottleneck and a short interface queue: local congestion.
    'v=2&alg=reno&rtt=20&rate=1G&nic=100M&txq=20&buf=1000&win=8M&mtu=1500&dur=5&seed=3',
    // RED with ECN: marks.
    `v=2&alg=reno&rtt=20&rate=100M&buf=100&aqm=${encodeURIComponent('red(min=5;max=15;p=0.1;w=0.002;ecn=1)')}&dur=5&seed=3`,
  ];
  const seen = new Set<string>();
  for (const q of runs) {
    await open(page, q);
    const log = await events(page);
    const run = await page.evaluate(() => {
      const s = window.sawtooth!.series()!;
      return {
        duration: window.sawtooth!.scenario()!.duration_ms / 1000,
        flows: s.flows.length,
        t: Array.from(s.t),
        state: s.flows.map((f) => Array.from(f.state)),
      };
    });
    expect(log.length).toBeGreaterThan(0);
    let last = 0;
    for (const e of log) {
      expect(kinds, `event kind ${e.kind} (in ${q}) is documented`).toContain(e.kind);
      expect(e.kind).not.toBe('unknown');
      expect(Number.isInteger(e.flow) && e.flow >= 0 && e.flow < run.flows).toBe(true);
      expect(e.t_s).toBeGreaterThanOrEqual(last);
      expect(e.t_s).toBeLessThanOrEqual(run.duration);
      last = e.t_s;
      seen.add(e.kind);
    }
    // The state column is the state of the last entered_* event before each
    // sample (Open before any), coded as documented: state = code − 5.
    for (let f = 0; f < run.flows; f++) {
      const entered = log.filter((e) => e.flow === f && e.kind.startsWith('entered_'));
      let k = 0;
      let state = 0;
      run.t.forEach((t, i) => {
        while (k < entered.length && entered[k].t_s < t) state = code[entered[k++].kind] - 5;
        expect(run.state[f][i], `flow ${f} state at t = ${t} in ${q}`).toBe(state);
      });
    }
    // The charts mark the documented marker kinds, one per event.
    const markers = await json<Record<string, number>>(page, 'chart-cwnd', 'data-marker-counts');
    expect(Object.keys(markers).sort()).toEqual([...markerKinds].sort());
    for (const k of markerKinds) expect(markers[k], `${k} markers in ${q}`).toBe(log.filter((e) => e.kind === k).length);
  }
  expect([...seen].sort()).toEqual(kinds.filter((k) => k !== 'unknown').sort());
});

test('sample columns: queues count the packet on the wire, throughput is payload b/s, times and units as documented', async ({ page }) => {
  await open(page, LOSSY);
  const r = await page.evaluate(() => {
    const w = window.sawtooth!;
    const s = w.series()!;
    const sc = w.scenario()!;
    const f = s.flows[0];
    return {
      sc,
      summary: w.summary()!,
      length: s.length,
      t: [s.t[0], s.t[s.length - 1]],
      queue: Array.from(s.bottleneck_queue_pkts),
      ifq: Array.from(s.hosts[0].ifq_pkts),
      tput: Array.from(f.throughput_bps),
      cwndOk: Array.from(f.cwnd_pkts).every((c, i) => f.cwnd_bytes[i] === c * (sc.mtu_bytes - 52)),
      srtt: Array.from(f.srtt_ms).filter((v) => v > 0),
    };
  });
  const dt = r.sc.sample_interval_ms / 1000;
  const duration = r.sc.duration_ms / 1000;
  expect(r.t[0]).toBeCloseTo(dt, 9);
  expect(r.t[1]).toBeCloseTo(duration, 9);
  expect(r.length).toBe(Math.round(duration / dt));

  // q.bottleneck_pkts: waiting + the one on the wire, 0 … buffer + 1; a full queue reads buffer + 1.
  const buffer = r.sc.bottleneck.buffer_pkts;
  expect(buffer).toBe(300);
  expect(r.queue.every((q) => Number.isInteger(q) && q >= 0 && q <= buffer + 1)).toBe(true);
  expect(Math.max(...r.queue)).toBe(buffer + 1);
  expect(r.summary.bottleneck_drops).toBeGreaterThan(0);
  // h<h>.ifq_pkts: 0 … txqueuelen + 1.
  const txq = r.sc.hosts[0].txqueuelen_pkts;
  expect(r.ifq.every((q) => Number.isInteger(q) && q >= 0 && q <= txq + 1)).toBe(true);

  // throughput_bps: payload b/s per sample; its mean is the summary's mean throughput (b/s),
  // below capacity × MSS / (MTU + 38), and single samples burst far above the link.
  const mean = r.tput.reduce((a, b) => a + b, 0) / r.tput.length;
  const summary: RunSummary = r.summary;
  expect(mean / summary.flows[0].mean_throughput_bps).toBeCloseTo(1, 9);
  const payloadCap = (summary.capacity_bps * (r.sc.mtu_bytes - 52)) / (r.sc.mtu_bytes + 38);
  expect(mean).toBeLessThanOrEqual(payloadCap);
  expect(mean).toBeGreaterThan(0.5 * payloadCap);
  expect(summary.capacity_bps).toBe(100e6);
  expect(Math.max(...r.tput)).toBeGreaterThan(1.25 * summary.capacity_bps);
  // cwnd_bytes = cwnd_pkts × MSS; srtt in ms, at least the propagation delay.
  expect(r.cwndOk).toBe(true);
  expect(r.srtt.length).toBeGreaterThan(0);
  expect(Math.min(...r.srtt)).toBeGreaterThanOrEqual(r.sc.rtt_ms);

  // The throughput chart draws Mb/s, its axis clipped at 1.25 × capacity (then rounded up to a tick).
  const ids = await json<string[]>(page, 'chart-throughput', 'data-series-ids');
  expect(ids).toEqual(['f0.throughput_bps', 'capacity_bps']);
  const [y0, y1] = await json<[number, number]>(page, 'chart-throughput', 'data-y-domain');
  const clip = (1.25 * summary.capacity_bps) / 1e6;
  expect(y0).toBe(0);
  expect(y1).toBeGreaterThanOrEqual(clip);
  expect(y1).toBeLessThan(clip * 1.5);
  const queues = await json<[number, number]>(page, 'chart-queues', 'data-y-domain');
  expect(queues[1]).toBeGreaterThanOrEqual(buffer + 1);
});

test('the capped throughput axis says when values run past it, and where', async ({ page }) => {
  // Two flows at 100 Mb/s: the sum's bursts after a recovery pass the axis cap (1.25 × capacity, [0,140]).
  await open(page, 'v=2&alg=reno,cubic&rtt=40&rate=100M&buf=100&dur=5&seed=3');
  const [, top] = await json<[number, number]>(page, 'chart-throughput', 'data-y-domain');
  const note = page.getByTestId('chart-throughput').locator('text.clip-note');
  await expect(note).toHaveAttribute('data-clipped-above', String(top));
  await expect(note).toContainText(`above ${top} Mb/s are cut off`);
  // A chart without a cap never cuts its values.
  await expect(page.getByTestId('chart-cwnd').locator('text.clip-note')).toHaveCount(0);
});

/** The hover read-out of a chart: focus it and press → (documented keyboard use); the cursor's sample time and the drawn values. */
async function readout(page: Page, chart: string): Promise<{ t: number; values: Record<string, number> }> {
  const fig = page.getByTestId(`chart-${chart}`);
  await fig.focus();
  await page.keyboard.press('ArrowRight');
  await expect(fig).toHaveAttribute('data-cursor-t', /\d/);
  await expect(page.getByTestId(`chart-${chart}-tip`)).toBeVisible();
  return page.evaluate((id) => {
    const t = Number(document.querySelector(`[data-testid="chart-${id}"]`)!.getAttribute('data-cursor-t'));
    const values: Record<string, number> = {};
    for (const row of Array.from(document.querySelectorAll(`[data-testid="chart-${id}-tip"] [data-series]`))) values[row.getAttribute('data-series')!] = Number(row.getAttribute('data-value'));
    return { t, values };
  }, chart);
}

test('throughput chart: a 100 ms average under the raw column id, in Mb/s; the view-only controls start no run', async ({ page }) => {
  await open(page, LOSSY);
  const raw = await page.evaluate(() => {
    const s = window.sawtooth!.series()!;
    return { t: Array.from(s.t), tput: Array.from(s.flows[0].throughput_bps), dt: window.sawtooth!.scenario()!.sample_interval_ms };
  });
  const before = await page.evaluate(() => window.sawtooth!.runId());
  const at = (t: number) => raw.t.findIndex((v) => Math.abs(v - t) < 1e-6);

  // Default: the trailing mean of round(100 ms / dt) samples.
  const avg = await readout(page, 'throughput');
  const i = at(avg.t);
  expect(i).toBeGreaterThan(20);
  const n = Math.round(100 / raw.dt);
  const last = raw.tput.slice(i - n + 1, i + 1);
  expect(avg.values['f0.throughput_bps']).toBeCloseTo(last.reduce((a, b) => a + b, 0) / n / 1e6, 6);

  // "raw": the samples themselves; still under f0.throughput_bps; no new run.
  await page.locator('[data-control-id="throughput-average"] label').filter({ hasText: /^raw$/ }).click();
  await expect(page.locator('[data-control-id="throughput-average"]').getByRole('radio', { name: 'raw' })).toBeChecked();
  await expect
    .poll(async () => {
      const r = await readout(page, 'throughput');
      return Math.abs(r.values['f0.throughput_bps'] - raw.tput[at(r.t)] / 1e6);
    })
    .toBeLessThan(1e-9);
  expect(await json<string[]>(page, 'chart-throughput', 'data-series-ids')).toContain('f0.throughput_bps');

  // cwnd in bytes: the byte columns, in MB.
  await page.locator('[data-control-id="cwnd-unit"] label').filter({ hasText: /bytes/ }).click();
  await expect(page.getByTestId('chart-cwnd')).toHaveAttribute('data-series-ids', JSON.stringify(['f0.cwnd_bytes', 'f0.ssthresh_bytes']));
  expect(await page.evaluate(() => window.sawtooth!.runId())).toBe(before);
  await expect(page.locator('html')).toHaveAttribute('data-run-state', 'done');
});

test('charts: every chart id, figure attribute and series id is documented, and every documented series is drawn', async ({ page }) => {
  const chartIds = documented(/^## 4\. Charts/);
  const attrs = documented(/^### 4\.1 Figure attributes/);
  const series = documented(/^### 4\.2 Series/);
  expect(chartIds).toEqual(['cwnd', 'outstanding', 'throughput', 'queues', 'delay']);
  expect(series).toContain('f<i>.window_bytes');

  const drawn = new Set<string>();
  const check = async (what: string) => {
    for (const id of chartIds) {
      const fig = page.getByTestId(`chart-${id}`);
      await expect(fig).toHaveAttribute('data-chart', id);
      const names = await fig.evaluate((el) => el.getAttributeNames().filter((a) => a.startsWith('data-')));
      for (const a of names) expect(attrs, `chart-${id} attribute ${a} (${what}) is documented`).toContain(a);
      for (const attr of ['data-series-ids', 'data-ghost-series-ids']) {
        for (const s of await json<string[]>(page, `chart-${id}`, attr)) {
          expect(matchesAny(series)(s), `series ${s} of chart-${id} (${what}) is documented`).toBe(true);
          drawn.add(s);
        }
      }
    }
  };
  // Two hosts, a flow each (sum line), then a second run (ghost), then cwnd in bytes, then hover (data-cursor-t).
  await open(page, 'v=2&hosts=1,1&alg=reno,scalable&rtt=40&rate=100M&buf=300&win=8M&mtu=1500&dur=3&seed=7&probe=1');
  await check('first run');
  const before = await page.evaluate(() => window.sawtooth!.runId());
  await page.locator('[data-control-id="seed"]').getByRole('textbox').fill('8');
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before)).toBe('done');
  await expect(page.locator('figure[data-chart][data-render="canvas"]')).toHaveCount(0);
  expect(JSON.parse((await page.getByTestId('chart-cwnd').getAttribute('data-ghost-series-ids'))!)).not.toEqual([]);
  await check('with the previous run');
  await page.locator('[data-control-id="cwnd-unit"] label').filter({ hasText: /bytes/ }).click();
  await expect(page.getByTestId('chart-cwnd')).toHaveAttribute('data-series-ids', /cwnd_bytes/);
  await readout(page, 'cwnd');
  await check('cwnd in bytes, hovered');
  expect(await page.getByTestId('chart-cwnd').getAttribute('data-run-id')).toBe(String(await page.evaluate(() => window.sawtooth!.runId())));
  // A trace-driven bottleneck (section 9.1): its capacity line instead of capacity_bps.
  const beforeTrace = await page.evaluate(() => window.sawtooth!.runId());
  await page.getByTestId('trace-select').selectOption('constant-12mbps');
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), beforeTrace)).toBe('done');
  await expect(page.locator('figure[data-chart][data-render="canvas"]')).toHaveCount(0);
  await expect(page.getByTestId('chart-throughput')).toHaveAttribute('data-series-ids', /link\.capacity_bps/);
  await check('a trace-driven bottleneck');

  for (const id of series) expect([...drawn].some((s) => pattern(id).test(s)), `documented series ${id} is drawn`).toBe(true);
});

test('controls: every rendered data-control-id is documented, and every documented one is rendered', async ({ page }) => {
  const ids = documented(/^## 9\. Controls/);
  const rendered = new Set<string>();
  for (const q of [
    'v=2&alg=reno&dur=1&seed=1', // back-to-back
    'v=2&hosts=1,1&alg=reno,scalable&dur=1&seed=1', // two-to-one
    'v=2&hosts=3&alg=cubic&dur=1&seed=1', // parallel streams
    'v=2&hosts=2,1&alg=reno,cubic,scalable&dur=1&seed=1', // custom dumbbell
    'v=2&alg=reno&dur=1&seed=1&aqm=codel&probe=1', // a queue discipline with parameters, the probe on
  ]) {
    await open(page, q);
    for (const id of await page.locator('[data-control-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-control-id')!))) {
      expect(matchesAny(ids)(id), `data-control-id="${id}" (${q}) is documented in TEST-SURFACE.md section 9`).toBe(true);
      rendered.add(id);
    }
  }
  for (const id of ids) expect([...rendered].some((r) => pattern(id).test(r)), `documented control ${id} is rendered`).toBe(true);
});

test('set and await: whenDone(runId) resolves for the run of the change, not before', async ({ page }) => {
  await open(page, 'v=2&alg=reno&rtt=40&dur=2&seed=1');
  // Typed field: one edit, one run.
  const before = await page.evaluate(() => window.sawtooth!.runId());
  expect(before).toBeGreaterThan(0);
  // Ask before changing anything: it must not answer for the run on screen.
  await page.evaluate((id) => {
    (window as unknown as { pending: Promise<unknown> }).pending = window.sawtooth!.whenDone(id).then((state) => ({
      state,
      rtt: window.sawtooth!.scenario()!.rtt_ms,
      runId: window.sawtooth!.runId(),
      runState: document.documentElement.dataset.runState,
    }));
  }, before);
  await page.locator('[data-control-id="rtt"]').getByRole('textbox').fill('80');
  const after = await page.evaluate(() => (window as unknown as { pending: Promise<{ state: string; rtt: number; runId: number; runState: string }> }).pending);
  expect(after).toEqual({ state: 'done', rtt: 80, runId: expect.any(Number), runState: 'done' });
  expect(after.runId).toBeGreaterThan(before);
  await expect(page.getByTestId('chart-cwnd')).toHaveAttribute('data-run-id', String(after.runId));
  expect(await page.evaluate(() => window.sawtooth!.summary())).not.toBeNull();

  // Slider: a key press moves one step of its ladder.
  const slider = page.locator('[data-control-id="rtt"] input[type="range"]');
  await expect(slider).toHaveAttribute('aria-valuetext', '80 ms');
  const before2 = await page.evaluate(() => window.sawtooth!.runId());
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  expect(await page.evaluate((id) => window.sawtooth!.whenDone(id), before2)).toBe('done');
  expect(await page.evaluate(() => window.sawtooth!.scenario()!.rtt_ms)).toBe(81);
  await expect(slider).toHaveAttribute('aria-valuetext', '81 ms');

  // Without an argument whenDone() answers for the run on screen at once.
  expect(await page.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  const state: RunState = await page.evaluate(() => window.sawtooth!.state());
  expect(state).toBe('done');
});

test('sliders: aria-valuetext names the unit once', async ({ page }) => {
  const doubled = /(^|\s)(\S+)\s+\2(\s|$)/;
  for (const q of ['v=2&alg=scalable&rtt=40&rate=100M&buf=300&win=8M&dur=10&seed=7', 'v=2&hosts=2,1&alg=reno,cubic,scalable&dur=2&seed=1']) {
    await open(page, q);
    const texts = await page.locator('input[type="range"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-valuetext') ?? ''));
    expect(texts.length).toBeGreaterThan(5);
    for (const t of texts) {
      expect(t, `aria-valuetext "${t}"`).not.toMatch(doubled);
      expect(t, `aria-valuetext "${t}"`).toBe(t.trim());
    }
  }
  await open(page, 'v=2&alg=reno&rtt=40&rate=100M&buf=300&win=8M&dur=10&seed=7');
  const text = (id: string) => page.locator(`[data-control-id="${id}"] input[type="range"]`).getAttribute('aria-valuetext');
  expect(await text('rtt')).toBe('40 ms');
  expect(await text('duration')).toBe('10 s');
  expect(await text('buffer')).toBe('300 packets');
  expect(await text('window')).toBe('8 MB');
  expect(await text('bottleneck-rate')).toBe('100 Mb/s');
  expect(await text('seed')).toBe('7');
});

// ---------------------------------------------------------------- origin=

// A parent page for embed frames, served on another port (another origin,
// a loopback host: an http:// origin the contract accepts).
let parentServer: Server | null = null;
let parentHtml = '';
let parentOrigin = '';

test.beforeAll(async () => {
  parentServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(parentHtml);
  });
  await new Promise<void>((r) => parentServer!.listen(0, '127.0.0.1', r));
  const a = parentServer.address();
  parentOrigin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});

test.afterAll(async () => {
  parentServer?.closeAllConnections();
  await new Promise<void>((r) => (parentServer ? parentServer.close(() => r()) : r()));
});

async function framed(page: Page, src: string): Promise<Frame> {
  parentHtml = `<!doctype html><html><head><title>Slides</title></head><body>
<iframe id="lab" title="Sawtooth" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="720" height="460"></iframe>
<script>
  window.posted = [];
  window.addEventListener('message', (e) => window.posted.push(e.data && e.data.type));
</script></body></html>`;
  await page.goto(`${parentOrigin}/slides.html`);
  const frame = await (await page.locator('#lab').elementHandle())!.contentFrame();
  await frame!.waitForFunction(() => window.sawtooth !== undefined);
  expect(await frame!.evaluate(() => window.sawtooth!.whenDone())).toBe('done');
  return frame!;
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { posted: string[] }).posted);

test('origin=: https (and http on loopback) accepted; http elsewhere and garbage rejected with a notice, and nothing is posted', async ({ page, baseURL }) => {
  const notice = page.getByTestId('url-notice');
  for (const bad of ['http://slides.example.org', 'not an origin', 'https://slides.example.org/deck']) {
    await open(page, `v=2&alg=reno&dur=1&seed=1&origin=${encodeURIComponent(bad)}`);
    await expect(notice).toContainText(`origin=${bad}`);
  }
  for (const good of ['https://slides.example.org', 'https://slides.example.org:8443', 'http://127.0.0.1:8080', 'http://localhost:8080']) {
    await open(page, `v=2&alg=reno&dur=1&seed=1&origin=${encodeURIComponent(good)}`);
    await expect(notice).toHaveCount(0);
  }

  const app = (query: string) => new URL(`./?${query}`, baseURL).href;
  // Rejected: a notice inside the frame, and no message at all (not even to '*').
  const bad = await framed(page, app(`v=2&alg=reno&dur=1&seed=1&embed=1&charts=cwnd&origin=${encodeURIComponent('http://slides.example.org')}`));
  await expect(bad.getByTestId('url-notice')).toContainText('origin=http://slides.example.org');
  // Messages from the frame arrive in order: once this sentinel is in, any message posted before it would be too.
  await bad.evaluate(() => window.parent.postMessage({ type: 'test:sentinel' }, '*'));
  await page.waitForFunction(() => (window as unknown as { posted: string[] }).posted.includes('test:sentinel'));
  expect(await posted(page)).toEqual(['test:sentinel']);

  // Accepted (an http origin on a loopback host): ready and the summary arrive.
  const good = await framed(page, app(`v=2&alg=reno&dur=1&seed=1&embed=1&charts=cwnd&origin=${encodeURIComponent(parentOrigin)}`));
  await expect(good.getByTestId('url-notice')).toHaveCount(0);
  await page.waitForFunction(() => (window as unknown as { posted: string[] }).posted.includes('sawtooth:summary'));
  expect((await posted(page))[0]).toBe('sawtooth:ready');
});

// ---------------------------------------------------------------- guided labs

test('guided labs: a PointResult has exactly the documented fields', async ({ page }) => {
  const fields = documented(/^### 8\.1 `PointResult`/);
  expect(fields).toContain('total_throughput_mbps');
  await page.goto('./?lab=txqueuelen');
  await expect(page.getByTestId('guided-lab')).toHaveAttribute('data-lab-state', 'idle');
  await page.getByTestId('lab-run').click();
  await page.waitForFunction(() => window.sawtooth!.lab()?.points.some((p) => p.status === 'done' && p.result !== null) ?? false, undefined, { timeout: 55_000 });
  const result = await page.evaluate(() => window.sawtooth!.lab()!.points.find((p) => p.result !== null)!.result!);
  expect(Object.keys(result).sort()).toEqual([...fields].sort());
  expect(result.lab).toBe('txqueuelen');
  expect(result.total_throughput_mbps).toBeGreaterThan(0);
  expect(result.utilisation).toBeLessThanOrEqual(1);
  expect(result.flow_throughput_mbps.reduce((a, b) => a + b, 0)).toBeCloseTo(result.total_throughput_mbps, 6);
});
