// Where Chromium's memory goes while the lab page runs an uploaded scenario:
// every few seconds, for the page and each of its workers, the JS heap
// (Runtime.getHeapUsage: used, total, ArrayBuffer backing stores, Blink's
// heap; on the page also Memory.getDOMCounters), beside the renderer
// process's RSS (issue 28: what a large in-budget run costs in the browser).
// With SAWTOOTH_BENCH_WASM=1, also each worker's WebAssembly memories (their
// byte lengths, found with Runtime.queryObjects on
// WebAssembly.Memory.prototype); off by default: twice the page's renderer
// crashed while a worker running the engine was asked for them.
//
// node --experimental-websocket scripts/bench-memory-breakdown.mjs <scenario.json> <base url of a served production build> [period_s]
// (Node 20 needs the flag for its WebSocket; Node 22 has it by default.)
import { chromium } from 'playwright';
import { readFileSync, readdirSync } from 'node:fs';

const [file, base, periodArg] = process.argv.slice(2);
const period = Number(periodArg ?? 5) * 1e3;
const port = 9300 + Math.floor(Math.random() * 600);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--remote-debugging-port=${port}`],
});
const page = await browser.newPage();
let crashed = false;
page.on('crash', () => { crashed = true; console.log(JSON.stringify({ crash: 'the page\'s renderer crashed' })); });
const MB = 1024 * 1024;
// This browser's processes only (the machine may run other Chromiums): the
// process that listens on our debugging port and its descendants.
const procs = () => {
  const all = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.push({ pid: Number(pid), ppid, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
    } catch {}
  }
  const root = all.find((p) => p.cmd.includes(`--remote-debugging-port=${port}`) && !p.cmd.includes('--type='));
  if (!root) return [];
  const mine = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => mine.has(p.pid));
};
const rss = () => {
  let renderer = 0, total = 0;
  const renderers = {};
  for (const p of procs()) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0);
      total += kb;
      if (p.cmd.includes('--type=renderer')) { renderer = Math.max(renderer, kb); renderers[p.pid] = +(kb / 1024).toFixed(1); }
    } catch {}
  }
  return { renderer_MB: +(renderer / 1024).toFixed(1), all_MB: +(total / 1024).toFixed(1), renderers };
};

// A raw CDP connection (flat sessions), so workers can be addressed too.
const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
const ws = new WebSocket(version.webSocketDebuggerUrl);
await new Promise((r, j) => { ws.onopen = r; ws.onerror = j; });
let nextId = 1;
const pending = new Map();
const sessions = new Map(); // sessionId -> { type, url }
ws.onmessage = (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.id && pending.has(msg.id)) {
    const { resolve, reject } = pending.get(msg.id);
    pending.delete(msg.id);
    msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result);
  } else if (msg.method === 'Target.attachedToTarget') {
    const { sessionId, targetInfo } = msg.params;
    sessions.set(sessionId, { type: targetInfo.type, url: targetInfo.url.replace(base, '') });
    // Workers' own workers, if any.
    send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId).catch(() => {});
  } else if (msg.method === 'Target.detachedFromTarget') {
    sessions.delete(msg.params.sessionId);
  }
};
function send(method, params = {}, sessionId, timeoutMs = 60e3) {
  const id = nextId++;
  ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    setTimeout(() => { if (pending.delete(id)) reject(new Error(`${method} timed out`)); }, timeoutMs);
  });
}

await page.goto(`${base}/`);
await page.waitForFunction(() => document.documentElement.getAttribute('data-run-state') === 'done', null, { timeout: 120e3 });
const { targetInfos } = await send('Target.getTargets');
const pageTarget = targetInfos.find((t) => t.type === 'page' && t.url.startsWith(base));
const { sessionId: pageSession } = await send('Target.attachToTarget', { targetId: pageTarget.targetId, flatten: true });
sessions.set(pageSession, { type: 'page', url: '/' });
await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, pageSession);

async function measure(sessionId) {
  const out = {};
  try {
    const h = await send('Runtime.getHeapUsage', {}, sessionId, 5e3);
    out.heap_used_MB = +(h.usedSize / MB).toFixed(1);
    out.heap_total_MB = +(h.totalSize / MB).toFixed(1);
    if (h.backingStorageSize !== undefined) out.array_buffers_MB = +(h.backingStorageSize / MB).toFixed(1);
    if (h.embedderHeapUsedSize !== undefined) out.embedder_MB = +(h.embedderHeapUsedSize / MB).toFixed(1);
  } catch (e) {
    out.heap = String(e.message);
  }
  if (process.env.SAWTOOTH_BENCH_WASM === '1' && sessions.get(sessionId)?.type === 'worker') {
    try {
      const proto = await send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' }, sessionId, 20e3);
      const found = await send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId }, sessionId, 60e3);
      const lens = await send('Runtime.callFunctionOn', { objectId: found.objects.objectId, functionDeclaration: 'function () { return this.map((m) => m.buffer.byteLength); }', returnByValue: true }, sessionId, 20e3);
      out.wasm_MB = lens.result.value.map((b) => +(b / MB).toFixed(1));
      await send('Runtime.releaseObjectGroup', { objectGroup: '' }, sessionId).catch(() => {});
    } catch (e) {
      out.wasm = String(e.message);
    }
  }
  if (sessionId === pageSession) {
    try {
      const d = await send('Memory.getDOMCounters', {}, sessionId, 5e3);
      out.dom_nodes = d.nodes;
      out.dom_listeners = d.jsEventListeners;
    } catch {}
  }
  return out;
}

async function report(label) {
  const targets = {};
  for (const [sid, info] of [...sessions]) targets[`${info.type} ${info.url}`] = await measure(sid);
  console.log(JSON.stringify({ label, t_s: +((Date.now() - t0) / 1e3).toFixed(1), ...rss(), peak_renderer_MB: peak, targets }));
}

let t0 = Date.now();
let peak = 0;
// RSS every 250 ms, beside the loop below (which waits on the page).
const sampler = setInterval(() => { peak = Math.max(peak, rss().renderer_MB); }, 250);
await report('idle');
await page.getByTestId('upload-scenario').setInputFiles(file);
t0 = Date.now();
let state = '', started = false, sawRunning = false, lastReport = 0;
while (Date.now() - t0 < 1200e3 && !crashed) {
  state = (await page.locator('html').getAttribute('data-run-state', { timeout: 30e3 }).catch(() => '')) ?? '';
  const gate = page.getByTestId('run-gate-start');
  if (!started && (await gate.count().catch(() => 0))) { await gate.click().catch(() => {}); started = true; }
  if (state === 'running') sawRunning = true;
  if (sawRunning && (state === 'done' || state === 'error')) break;
  if (Date.now() - lastReport > period) { lastReport = Date.now(); await report(state); }
  await new Promise((r) => setTimeout(r, 250));
}
await report(`end ${state}`);
console.log(JSON.stringify({ state: crashed ? 'crashed' : state, wall_s: (Date.now() - t0) / 1e3, peak_renderer_MB: peak }));
clearInterval(sampler);
ws.close();
await browser.close();
