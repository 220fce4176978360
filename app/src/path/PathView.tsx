// The path view: the scenario's topology drawn as the run recorded it at
// the playback time: each sender host with its interface queue (txqueuelen)
// and NIC ring, the switch with the bottleneck queue against its buffer,
// the propagation link with packets and ACKs as aggregated dots, the
// receiver; drops and ECN marks flash at the queue, local back-offs at the
// host. It follows playback (pause, step, scrub) and the live run.
//
// All numbers come from model.ts (recorded columns and the event log); the
// dots from link.ts. Work per frame is bounded: binary searches, O(hosts +
// flows) (at most MAX_HOST_CARDS hosts and MAX_FLOWS_PER_HOST flows each
// drawn) and at most MAX_LANES × 2 × MAX_DOTS_PER_LANE dots on one canvas.
//
// Test surface (docs/TEST-SURFACE.md §4.4): data-* attributes on
// [data-testid="path-view"], path-host-H, path-flow-I, path-bottleneck and
// the text alternative path-summary.

import { memo, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { ChartSizingContext } from '../charts/chartSizing';
import { formatBitrate } from '../charts/format';
import { flowColor, onDark } from '../charts/palette';
import type { RunSeries } from '../engine/columns';
import type { AlgorithmInfo, EngineEvent, ProfileCatalogue, Scenario } from '../engine/types';
import { capacityPps } from '../model/path';
import { EventIndex } from './events';
import { DeliveryIndex, linkFrame, packetsPerDot, pathLanes, scenarioMss, type LaneFrame } from './link';
import { buildPathModel, fill, formatPkts, formatWindow, idleFlowText, pathSummary, queueText, ringSize, type FlowModel, type HostModel, type PathModel } from './model';
import './path.css';

/** The path view's id in `charts=` (embeds and presentation mode show it only when listed). */
export const PATH_CHART = 'path';

/** Host cards drawn; further hosts are summed up in one line. */
export const MAX_HOST_CARDS = 6;
/** Flow lines drawn per host card; further flows are summed up. */
export const MAX_FLOWS_PER_HOST = 3;
/** A flash lasts at least this much wall time at any playback speed. */
const FLASH_WALL_S = 0.3;

export interface PathViewProps {
  series: RunSeries | null;
  /** The scenario of the run on screen. */
  scenario: Scenario;
  events: readonly EngineEvent[];
  runId: number;
  /** The playback time shown, s. */
  t: number;
  /** Playback status: the text alternative is announced only when not playing. */
  playing: boolean;
  /** The run is streaming (live): announced when it ends. */
  streaming: boolean;
  /** Playback speed (× real time): flashes last FLASH_WALL_S of wall time at least. */
  speed: number;
  catalogue: AlgorithmInfo[];
  profiles?: ProfileCatalogue;
  /** Step the playback (the ← and → keys on the focused diagram). */
  onStep?(dir: 1 | -1): void;
  /**
   * A cell of a fitted view's chart grid (embeds and presentation mode,
   * `charts=path`): the view is laid out at least FIT_MIN_WIDTH wide (hosts,
   * switch, link and receiver in a row) and scaled down to fit the cell, so
   * it never scrolls or overflows.
   */
  fit?: boolean;
}

/** The least width the path view is laid out at in a fitted cell (wider than the point where it stacks). */
const FIT_MIN_WIDTH = 760;

/** An element's layout width (offsetWidth: not changed by a transform), updated on resize. */
function useLayoutWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = el.offsetWidth;
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

/**
 * In a fitted cell: the width to lay the view out at and the scale that fits
 * it into the cell (at most 1), from the cell's content box and the laid-out
 * content's height; null outside a fitted cell.
 */
function useFitScale(enabled: boolean, cell: RefObject<HTMLElement | null>, inner: RefObject<HTMLElement | null>): { width: number; scale: number } | null {
  const [fit, setFit] = useState<{ width: number; scale: number } | null>(null);
  useLayoutEffect(() => {
    const c = cell.current;
    const i = inner.current;
    if (!enabled || !c || !i) {
      setFit(null);
      return;
    }
    const measure = () => {
      const cs = getComputedStyle(c);
      const availW = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const availH = c.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
      if (availW <= 0 || availH <= 0) return;
      const width = Math.max(Math.floor(availW), FIT_MIN_WIDTH);
      // The content's height at that width (offsetHeight: before the transform).
      if (i.style.width !== `${width}px`) i.style.width = `${width}px`;
      const h = i.offsetHeight;
      const scale = Math.min(1, availW / width, h > 0 ? availH / h : 1);
      const next = { width, scale: Math.floor(scale * 1000) / 1000 };
      setFit((prev) => (prev && prev.width === next.width && prev.scale === next.scale ? prev : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(c);
    ro.observe(i);
    return () => ro.disconnect();
  }, [enabled, cell, inner]);
  return enabled ? fit : null;
}

function useReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const m = matchMedia(query);
    const on = () => setReduced(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return reduced;
}

const num = (v: number | null): string => (v === null ? '' : String(v));

function Meter({ value, limit, label, testId }: { value: number | null; limit: number; label: string; testId?: string }) {
  const f = fill(value, limit);
  return (
    <div className="path-meter-row" data-testid={testId}>
      <span className="path-meter-label">{label}</span>
      <span className="path-meter" aria-hidden="true">
        <span className={`path-meter-fill${f >= 0.9 ? ' full' : ''}`} style={{ transform: `scaleX(${f})` }} />
      </span>
      <span className="path-meter-value">{queueText(value, limit)}</span>
    </div>
  );
}

function FlowLine({ f, name, sampled }: { f: FlowModel; name: string; sampled: boolean }) {
  const events: string[] = [];
  if (f.timeouts) events.push(`${f.timeouts} timeout${f.timeouts === 1 ? '' : 's'}`);
  if (f.fastRetransmits) events.push(`${f.fastRetransmits} fast retransmit${f.fastRetransmits === 1 ? '' : 's'}`);
  return (
    <li
      className="path-flow"
      data-testid={`path-flow-${f.index}`}
      data-outstanding-bytes={num(f.outstandingBytes)}
      data-captured-bytes={num(f.capturedBytes)}
      data-cwnd-pkts={num(f.cwndPkts)}
      data-throughput-bps={num(f.throughputBps)}
      data-srtt-ms={num(f.srttMs)}
      data-state={num(f.state)}
      data-drops={f.drops}
      data-ecn-marks={f.marks}
      data-local-congestion={f.backoffs}
    >
      <span className="swatch" style={{ background: flowColor(f.index) }} aria-hidden="true" />
      <span className="path-flow-text">
        <span>
          <strong>flow {f.index}</strong> {name}
          {f.active ? <> · {f.stateName}</> : <span className="muted"> · {idleFlowText(sampled)}</span>}
        </span>
        {f.active && (
          <span className="path-flow-values">
            <span className="path-num">{f.outstandingPkts === null ? '–' : formatPkts(f.outstandingPkts)}</span> packets sent, not ACKed · cwnd{' '}
            {f.cwndPkts === null ? '–' : formatPkts(f.cwndPkts)} · {f.throughputBps === null ? '–' : formatBitrate(f.throughputBps)} · RTT{' '}
            {f.srttMs === null || f.srttMs === 0 ? '–' : `${f.srttMs.toFixed(1)} ms`}
            {events.length > 0 && <span className="path-flow-events"> · {events.join(', ')}</span>}
          </span>
        )}
      </span>
    </li>
  );
}

function HostCard({ h, m, names }: { h: HostModel; m: PathModel; names: string[] }) {
  const shown = h.flows.slice(0, MAX_FLOWS_PER_HOST);
  const rest = h.flows.slice(MAX_FLOWS_PER_HOST);
  const restOut = rest.reduce((a, i) => a + (m.flows[i].outstandingPkts ?? 0), 0);
  const ring = h.ring;
  return (
    <div
      className={`path-host${h.backoffFlash > 0 ? ' flashing' : ''}`}
      data-testid={`path-host-${h.index}`}
      data-ifq-pkts={num(h.ifqPkts)}
      data-txqueuelen-pkts={h.txqueuelenPkts}
      data-ring={ring.state}
      data-ring-pkts={ring.state === 'recorded' ? num(ring.pkts) : ''}
      data-local-congestion={h.localBackoffs}
      data-backoff-flash={h.backoffFlash.toFixed(3)}
      style={{ ['--flash' as string]: h.backoffFlash.toFixed(3) }}
    >
      <div className="path-node-head">
        <strong>Host {h.index}</strong>
        <span className="muted">NIC {formatBitrate(h.nicBps)}</span>
        {h.localBackoffs > 0 && (
          <span className="path-badge backoff">
            {h.localBackoffs} local back-off{h.localBackoffs === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <Meter value={h.ifqPkts} limit={h.txqueuelenPkts} label="interface queue" />
      <div className={`path-ring ${ring.state}`}>
        <span className="path-ring-label">NIC ring</span>
        {ring.state === 'none' ? (
          <span className="path-ring-value">none in this profile</span>
        ) : ring.state === 'recorded' ? (
          <span className="path-ring-value">
            {ring.pkts === null ? '–' : `${formatPkts(ring.pkts)} ${ring.pkts === 1 ? 'packet' : 'packets'}`} (a ring of {ring.size.size.toLocaleString('en-US')} {ring.size.unit})
          </span>
        ) : (
          <span className="path-ring-value">
            <strong>not recorded</strong> ({ring.size.size.toLocaleString('en-US')} {ring.size.unit} in this profile)
            <span className="path-ring-note">packets waiting here show only as a longer RTT</span>
          </span>
        )}
      </div>
      <ul className="path-flows">
        {shown.map((i) => (
          <FlowLine key={i} f={m.flows[i]} name={names[i]} sampled={m.row >= 0} />
        ))}
        {rest.length > 0 && (
          <li className="path-flow more">
            +{rest.length} more flows: {formatPkts(restOut)} packets sent, not yet acknowledged
          </li>
        )}
      </ul>
    </div>
  );
}

/** Draw the link: each lane's line each way, its dots (or, with reduced motion, a band as dense as its rate). */
function drawLink(c: HTMLCanvasElement, width: number, frame: LaneFrame[], o: { dark: boolean; reduced: boolean; capPps: number }): void {
  const laneH = 9;
  const gap = 10;
  const half = frame.length * laneH;
  const height = 2 * half + gap + 8;
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const pw = Math.round(width * dpr);
  const ph = Math.round(height * dpr);
  if (c.width !== pw) c.width = pw;
  if (c.height !== ph) c.height = ph;
  c.style.width = `${width}px`;
  c.style.height = `${height}px`;
  const ctx = c.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const x0 = 6;
  const x1 = width - 10;
  const len = Math.max(1, x1 - x0);
  const line = o.dark ? '#3a4757' : '#d8dee6';
  const ink = o.dark ? '#9fb0c2' : '#7a8794';
  const tone = (col: string) => (o.dark ? onDark(col) : col);
  // Arrowheads: data to the right (top half), ACKs to the left (bottom half).
  ctx.fillStyle = ink;
  ctx.beginPath();
  ctx.moveTo(x1 + 8, 4 + half / 2);
  ctx.lineTo(x1 + 1, half / 2);
  ctx.lineTo(x1 + 1, 8 + half / 2);
  ctx.fill();
  const yb0 = 4 + half + gap;
  ctx.beginPath();
  ctx.moveTo(x0 - 6, yb0 + half / 2);
  ctx.lineTo(x0 + 1, yb0 + half / 2 - 4);
  ctx.lineTo(x0 + 1, yb0 + half / 2 + 4);
  ctx.fill();
  frame.forEach((f, k) => {
    const yf = 4 + k * laneH + laneH / 2;
    const yb = yb0 + k * laneH + laneH / 2;
    const col = tone(f.lane.color);
    ctx.strokeStyle = line;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x0, yf);
    ctx.lineTo(x1, yf);
    ctx.moveTo(x0, yb);
    ctx.lineTo(x1, yb);
    ctx.stroke();
    if (o.reduced) {
      // No motion: a band whose strength is the lane's share of the capacity.
      ctx.globalAlpha = Math.min(1, f.ratePps / Math.max(1, o.capPps)) * 0.8;
      ctx.fillStyle = col;
      ctx.fillRect(x0, yf - 2.5, len, 5);
      ctx.fillRect(x0, yb - 1.5, len, 3);
      ctx.globalAlpha = 1;
      return;
    }
    ctx.fillStyle = col;
    ctx.beginPath();
    for (const p of f.dots.forward) {
      const x = x0 + p * len;
      ctx.moveTo(x + 3.2, yf);
      ctx.arc(x, yf, 3.2, 0, 2 * Math.PI);
    }
    ctx.fill();
    ctx.strokeStyle = col;
    ctx.lineWidth = 1.4;
    ctx.beginPath();
    for (const p of f.dots.back) {
      const x = x1 - p * len;
      ctx.moveTo(x + 2.4, yb);
      ctx.arc(x, yb, 2.4, 0, 2 * Math.PI);
    }
    ctx.stroke();
  });
}

function PathViewImpl(props: PathViewProps) {
  const { series, scenario, events, runId, t, catalogue } = props;
  const sizing = useContext(ChartSizingContext);
  const dark = !!sizing.dark;
  const reduced = useReducedMotion();
  const uid = useId().replace(/:/g, '');
  const rootRef = useRef<HTMLElement>(null);
  const linkBox = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const linkWidth = useLayoutWidth(linkBox, 240);
  const fit = useFitScale(!!props.fit, rootRef, innerRef);
  const workMs = useRef(0);

  // Indexes that grow with the run (only new rows and events are read).
  const eventIndex = useRef(new EventIndex());
  const delivery = useRef(new DeliveryIndex());
  const mss = scenarioMss(scenario);
  const indexedEvents = useMemo(() => eventIndex.current.update(events, runId), [events, runId]);
  const lanes = useMemo(() => pathLanes(scenario), [scenario]);
  const perDot = useMemo(() => packetsPerDot(scenario, lanes), [scenario, lanes]);
  const ring = useMemo(() => ringSize(props.profiles?.profiles.find((p) => p.id === scenario.profile)?.mechanisms ?? null, scenario.mechanisms), [props.profiles, scenario]);
  const flashS = Math.max(0, props.speed) * FLASH_WALL_S;

  const started = performance.now();
  const model = useMemo(
    () => buildPathModel({ series, scenario, events: indexedEvents, t, ring, flashS }),
    // indexedEvents is one mutable object: `events` and `runId` say when it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, scenario, events, runId, t, ring, flashS],
  );
  const frame = useMemo(() => {
    if (!series) return lanes.map((lane) => ({ lane, ratePps: 0, slowed: false, dots: { forward: [], back: [] } }));
    delivery.current.update(series, mss, runId);
    return linkFrame(series, scenario, delivery.current, lanes, t, perDot, { playing: props.playing, speed: props.speed });
  }, [series, scenario, lanes, t, perDot, mss, runId, props.playing, props.speed]);
  workMs.current = performance.now() - started;

  const capPps = useMemo(() => capacityPps(scenario), [scenario]);

  useLayoutEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    const t0 = performance.now();
    drawLink(c, Math.max(60, linkWidth), frame, { dark, reduced, capPps });
    const ms = workMs.current + (performance.now() - t0);
    rootRef.current?.setAttribute('data-work-ms', ms.toFixed(3));
  }, [frame, linkWidth, dark, reduced, capPps]);

  // The text alternative is announced when the picture stands still (paused,
  // stepped, scrubbed, a run finished), not on every frame of playback.
  const summary = useMemo(() => pathSummary(model), [model]);
  const quiet = props.playing || props.streaming;
  const lastLive = useRef(summary);
  if (!quiet) lastLive.current = summary;
  const live = lastLive.current;

  const names = useMemo(() => scenario.hosts.flatMap((h) => h.flows.map((f) => catalogue.find((a) => a.id === f.algorithm)?.name ?? f.algorithm)), [scenario, catalogue]);
  const hostsShown = model.hosts.slice(0, MAX_HOST_CARDS);
  const hostsRest = model.hosts.slice(MAX_HOST_CARDS);
  const b = model.bottleneck;
  const totalBackoffs = model.hosts.reduce((a, h) => a + h.localBackoffs, 0);
  const delivering = model.flows.reduce((a, f) => a + (f.throughputBps ?? 0), 0);
  const oneWay = lanes.length ? lanes.reduce((a, l) => a + l.oneWayS, 0) / lanes.length : scenario.rtt_ms / 2000;
  const win = formatWindow(model.windowS);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!props.onStep || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      e.stopPropagation();
      props.onStep(e.key === 'ArrowRight' ? 1 : -1);
    }
  };

  return (
    <section
      ref={rootRef}
      className={`path-panel${props.fit ? ' path-fit' : ''}`}
      aria-labelledby={`${uid}-h`}
      data-testid="path-view"
      data-run-id={runId}
      data-play-t={String(t)}
      data-row={model.row}
      data-t={model.sampleT === null ? '' : String(model.sampleT)}
      data-window-s={String(model.windowS)}
      data-bottleneck-pkts={num(b.pkts)}
      data-buffer-pkts={b.bufferPkts}
      data-bottleneck-delay-ms={num(b.delayMs)}
      data-drops={b.drops}
      data-ecn-marks={b.marks}
      data-local-congestion={totalBackoffs}
      data-packets-per-dot={perDot}
      data-lanes={lanes.length}
      data-fit-scale={fit ? String(fit.scale) : undefined}
    >
      <div
        ref={innerRef}
        className="path-inner"
        style={fit ? { width: `${fit.width}px`, transform: `scale(${fit.scale})` } : undefined}
      >
      <div className="path-heading">
        <h2 id={`${uid}-h`} className="section-title">
          Path
        </h2>
        <p className="path-sub muted">
          {model.sampleT === null ? (
            // No run recorded yet (or the last one failed): the scenario's layout, without a moment to show.
            <>The scenario’s hosts, switch and link; once a run has recorded samples, the network at each moment of it.</>
          ) : (
            <>
              The network at <span className="path-num">{`${model.sampleT.toFixed(2)} s`}</span>, as the run recorded it. It follows the playback; focus the diagram and use ← → to step.
            </>
          )}
        </p>
      </div>
      <div
        className="path-diagram"
        role="group"
        tabIndex={0}
        aria-label="Path diagram: sender hosts, switch, link and receiver. Left and right arrow keys step the playback."
        aria-describedby={`${uid}-sum`}
        aria-keyshortcuts="ArrowLeft ArrowRight"
        onKeyDown={onKeyDown}
      >
        <div className="path-senders">
          {hostsShown.map((h) => (
            <HostCard key={h.index} h={h} m={model} names={names} />
          ))}
          {hostsRest.length > 0 && (
            <p className="path-more">
              +{hostsRest.length} more hosts: {formatPkts(hostsRest.reduce((a, h) => a + (h.ifqPkts ?? 0), 0))} packets in their interface queues,{' '}
              {hostsRest.reduce((a, h) => a + h.localBackoffs, 0)} local back-offs in the last {win}
            </p>
          )}
        </div>
        <div className="path-arrow" aria-hidden="true" />
        <div
          className={`path-switch${b.dropFlash > 0 ? ' dropping' : ''}${b.markFlash > 0 ? ' marking' : ''}`}
          data-testid="path-bottleneck"
          data-drop-flash={b.dropFlash.toFixed(3)}
          data-mark-flash={b.markFlash.toFixed(3)}
          style={{ ['--drop-flash' as string]: b.dropFlash.toFixed(3), ['--mark-flash' as string]: b.markFlash.toFixed(3) }}
        >
          <div className="path-node-head">
            <strong>Switch</strong>
            <span className="muted">
              bottleneck {formatBitrate(b.rateBps)}, {AQM_NAMES[b.aqm] ?? b.aqm}
            </span>
          </div>
          <Meter value={b.pkts} limit={b.bufferPkts} label="queue" />
          <div className="path-detail">queueing delay {b.delayMs === null ? '–' : `${b.delayMs.toFixed(1)} ms`}</div>
          <div className="path-events">
            <span className={`path-badge drop${b.drops ? ' on' : ''}`}>
              {b.drops} drop{b.drops === 1 ? '' : 's'}
              {b.randomLoss ? ' (queue or random loss)' : ''}
            </span>
            {(b.canMark || b.marks > 0) && (
              <span className={`path-badge mark${b.marks ? ' on' : ''}`}>
                {b.marks} ECN mark{b.marks === 1 ? '' : 's'}
              </span>
            )}
            <span className="muted"> in the last {win}</span>
          </div>
        </div>
        <div className="path-arrow" aria-hidden="true" />
        <div className="path-link" ref={linkBox}>
          <div className="path-link-head muted">
            propagation {(oneWay * 1000).toFixed(oneWay * 1000 < 10 ? 1 : 0)} ms each way · data → · ← ACKs
          </div>
          <canvas ref={canvasRef} className="path-canvas" aria-hidden="true" />
          <div className="path-link-key muted">
            1 dot ≈ {perDot.toLocaleString('en-US')} packet{perDot === 1 ? '' : 's'}, spaced by the delivery rate
            <span className="path-slowed" style={{ visibility: frame.some((f) => f.slowed) ? 'visible' : 'hidden' }}>
              {' '}
              · drawn slowed down
            </span>
            {lanes[0]?.id.startsWith('h') ? ' · one lane per host' : lanes[0]?.id === 'all' ? ' · all flows in one lane' : ''}
          </div>
        </div>
        <div className="path-arrow" aria-hidden="true" />
        <div className="path-rx" data-testid="path-receiver">
          <div className="path-node-head">
            <strong>Receiver</strong>
          </div>
          <div className="path-detail">delivering {formatBitrate(delivering)}</div>
        </div>
      </div>
      </div>
      <p id={`${uid}-sum`} className="sr-only" aria-live="polite" data-testid="path-summary">
        {live}
      </p>
    </section>
  );
}

const AQM_NAMES: Record<string, string> = { drop_tail: 'drop-tail', red: 'RED', codel: 'CoDel', fq_codel: 'FQ-CoDel', pie: 'PIE', step_mark: 'step marking', dualpi2: 'DualPI2' };

export const PathView = memo(PathViewImpl);
