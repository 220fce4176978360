// The embed builder (share panel): choose charts, controls, theme, playback
// and the frame's size; a live preview of exactly that link in a real
// iframe; the code to paste (iframe snippet) and the plain link. The math
// is in embedCode.ts.

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Scenario } from '../engine/types';
import { SPEEDS } from '../lab/playback';
import { CHART_IDS } from '../charts/specs';
import { useElementWidth } from '../charts/useElementWidth';
import { ASPECTS, clampFrame, embedLink, FRAME_PRESETS, iframeSnippet, inOrder, type EmbedChoice } from './embedCode';
import { FRAME_MAX, FRAME_MIN } from './view';

export interface BuilderChart {
  id: string;
  title: string;
}

/** Controls an embed can show (section 9's controls= ids) and the playback bar. */
export const EMBED_CONTROLS: readonly { id: string; label: string }[] = [
  { id: 'rtt', label: 'RTT' },
  { id: 'bottleneck-rate', label: 'Bottleneck rate' },
  { id: 'buffer', label: 'Bottleneck buffer' },
  { id: 'window', label: 'Window' },
  { id: 'txqueuelen', label: 'txqueuelen' },
  { id: 'nic-rate', label: 'NIC rate' },
  { id: 'loss', label: 'Random loss' },
  { id: 'mtu', label: 'MTU' },
  { id: 'flows', label: 'Flows and algorithms' },
  { id: 'duration', label: 'Duration' },
  { id: 'playback', label: 'Playback bar' },
];

const THEME_LABELS: Record<EmbedChoice['theme'], string> = { light: 'Light', dark: 'Dark', projector: 'Projector (high contrast)' };

/** Wait before the preview loads a changed link (typing a size reloads it once). */
const PREVIEW_DELAY_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

function toggle(list: string[], id: string, on: boolean): string[] {
  return on ? [...new Set([...list, id])] : list.filter((x) => x !== id);
}

/** A typed side, if it is a whole number of pixels in [min, max]. */
export function frameSideOf(text: string, min: number, max: number): number | null {
  if (text.trim() === '') return null;
  const v = Number(text);
  return Number.isInteger(v) && v >= min && v <= max ? v : null;
}

/**
 * A frame side in pixels. A value is taken as soon as it is in range, and
 * clamped only when the box is left or Enter is pressed: clamping on every
 * key turned "8" of "800" into the minimum, and "3200" into the maximum.
 */
function FrameSideInput(p: { label: string; value: number; min: number; max: number; testId: string; /** Takes any number and clamps it to the frame's range. */ onValue(v: number): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const hintId = useId();
  const shown = draft ?? String(p.value);
  const outside = draft !== null && frameSideOf(draft, p.min, p.max) === null;
  // The caller clamps (clampFrame); a blank box keeps the last value.
  const commit = () => {
    if (draft === null) return;
    if (draft.trim() !== '') p.onValue(Number(draft));
    setDraft(null);
  };
  return (
    <label className="eb-inline">
      {p.label}
      <input
        type="number"
        min={p.min}
        max={p.max}
        value={shown}
        aria-invalid={outside || undefined}
        aria-describedby={outside ? hintId : undefined}
        onChange={(e) => {
          const text = e.currentTarget.value;
          setDraft(text);
          const v = frameSideOf(text, p.min, p.max);
          if (v !== null) p.onValue(v);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
        data-testid={p.testId}
      />
      {outside && (
        <span id={hintId} className="hint" data-testid={`${p.testId}-range`}>
          {p.label} must be a whole number of pixels from {p.min} to {p.max}; leaving the box takes the nearest.
        </span>
      )}
    </label>
  );
}

export interface EmbedBuilderProps {
  scenario: Scenario | null;
  defaults: Scenario | null;
  charts: BuilderChart[];
  choice: EmbedChoice;
  onChoice(c: EmbedChoice): void;
  open: boolean;
  onOpen(open: boolean): void;
  onCopy(text: string, what: 'code' | 'link'): void;
}

export function EmbedBuilder(p: EmbedBuilderProps) {
  const uid = useId();
  const c = p.choice;
  const set = (patch: Partial<EmbedChoice>) => p.onChoice({ ...c, ...patch });
  // Once per scenario and choice, not on every render: the page re-renders
  // this panel with every chunk of a run, and the link of a 4 096-flow
  // scenario (encoded, then decoded to check it) kept the page's main
  // thread busy for the whole run (issue 28).
  const link = useMemo(() => (p.scenario && p.defaults ? embedLink(window.location.href, p.scenario, p.defaults, c) : ''), [p.scenario, p.defaults, c]);
  const code = link ? iframeSnippet(link, c.size) : '';
  const previewLink = useDebounced(link, PREVIEW_DELAY_MS);
  const box = useRef<HTMLDivElement>(null);
  const boxWidth = useElementWidth(box, 480);
  const fixed = c.size.kind === 'fixed' ? c.size : null;
  const preset = fixed ? FRAME_PRESETS.findIndex((f) => f.width === fixed.width && f.height === fixed.height) : -1;
  // The preview: the frame at its real size, shown scaled down to the column.
  const k = fixed ? Math.min(1, boxWidth / fixed.width) : 1;
  const aspect = c.size.kind === 'responsive' ? c.size.aspect : null;
  const previewHeight = fixed ? fixed.height * k : (boxWidth * aspect![1]) / aspect![0];

  return (
    <details className="embed-builder" data-testid="embed-builder" open={p.open} onToggle={(e) => p.onOpen(e.currentTarget.open)}>
      <summary>Embed builder: charts, controls, theme, size, with a live preview</summary>
      <div className="eb-grid">
        <div className="eb-options">
          <fieldset>
            <legend>Charts</legend>
            {p.charts.map((ch) => (
              <label key={ch.id} className="check">
                <input
                  type="checkbox"
                  checked={c.charts.includes(ch.id)}
                  onChange={(e) => set({ charts: inOrder(toggle(c.charts, ch.id, e.currentTarget.checked), p.charts.map((x) => x.id)) })}
                  data-testid={`eb-chart-${ch.id}`}
                />
                {ch.title}
              </label>
            ))}
            {c.charts.length === 0 && <p className="hint">No chart ticked: the embed shows all {CHART_IDS.length} time charts.</p>}
          </fieldset>
          <fieldset>
            <legend>Controls</legend>
            {EMBED_CONTROLS.map((ctl) => (
              <label key={ctl.id} className="check">
                <input
                  type="checkbox"
                  checked={c.controls.includes(ctl.id)}
                  onChange={(e) => set({ controls: inOrder(toggle(c.controls, ctl.id, e.currentTarget.checked), EMBED_CONTROLS.map((x) => x.id)) })}
                  data-testid={`eb-control-${ctl.id}`}
                />
                {ctl.label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Theme</legend>
            {(Object.keys(THEME_LABELS) as EmbedChoice['theme'][]).map((t) => (
              <label key={t} className="radio">
                <input type="radio" name={`${uid}-theme`} checked={c.theme === t} onChange={() => set({ theme: t })} data-testid={`eb-theme-${t}`} />
                {THEME_LABELS[t]}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Playback</legend>
            <label className="check">
              <input type="checkbox" checked={c.autoplay} onChange={(e) => set({ autoplay: e.currentTarget.checked })} data-testid="eb-autoplay" />
              Play each run as it comes
            </label>
            <label className="eb-inline">
              Speed
              <select value={c.speed} onChange={(e) => set({ speed: Number(e.currentTarget.value) })} data-testid="eb-speed">
                {SPEEDS.map((v) => (
                  <option key={v} value={v}>
                    {v}× real time
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
          <fieldset>
            <legend>Size</legend>
            <label className="radio">
              <input type="radio" name={`${uid}-size`} checked={!!fixed} onChange={() => set({ size: { kind: 'fixed', width: 960, height: 540 } })} data-testid="eb-size-fixed" />
              Fixed frame
            </label>
            <label className="radio">
              <input type="radio" name={`${uid}-size`} checked={!fixed} onChange={() => set({ size: { kind: 'responsive', aspect: [16, 9] } })} data-testid="eb-size-responsive" />
              Responsive (fills the page’s width)
            </label>
            {fixed && (
              <div className="eb-size">
                <label className="eb-inline">
                  Preset
                  <select
                    value={preset}
                    onChange={(e) => {
                      const f = FRAME_PRESETS[Number(e.currentTarget.value)];
                      if (f) set({ size: { kind: 'fixed', ...f } });
                    }}
                    data-testid="eb-preset"
                  >
                    {preset < 0 && <option value={-1}>custom</option>}
                    {FRAME_PRESETS.map((f, i) => (
                      <option key={i} value={i}>
                        {f.width} × {f.height}
                      </option>
                    ))}
                  </select>
                </label>
                <FrameSideInput label="Width" value={fixed.width} min={FRAME_MIN.width} max={FRAME_MAX.width} testId="eb-width" onValue={(w) => set({ size: { kind: 'fixed', ...clampFrame(w, fixed.height, FRAME_MIN, FRAME_MAX) } })} />
                <FrameSideInput label="Height" value={fixed.height} min={FRAME_MIN.height} max={FRAME_MAX.height} testId="eb-height" onValue={(h) => set({ size: { kind: 'fixed', ...clampFrame(fixed.width, h, FRAME_MIN, FRAME_MAX) } })} />
              </div>
            )}
            {aspect && (
              <label className="eb-inline">
                Shape
                <select
                  value={aspect.join(':')}
                  onChange={(e) => set({ size: { kind: 'responsive', aspect: e.currentTarget.value.split(':').map(Number) as [number, number] } })}
                  data-testid="eb-aspect"
                >
                  {ASPECTS.map((a) => (
                    <option key={a.join(':')} value={a.join(':')}>
                      {a[0]}:{a[1]}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </fieldset>
        </div>
        <div className="eb-output">
          <div ref={box} className="eb-preview-box" style={{ height: previewHeight }}>
            {p.open && previewLink && (
              <iframe
                className="eb-preview"
                src={previewLink}
                title="Embed preview"
                data-testid="embed-preview"
                allow="fullscreen"
                style={
                  fixed
                    ? { width: fixed.width, height: fixed.height, transform: `scale(${k})`, transformOrigin: '0 0' }
                    : { width: '100%', height: '100%' }
                }
              />
            )}
          </div>
          <p className="hint">{fixed ? `Preview of the ${fixed.width} × ${fixed.height} frame${k < 1 ? `, shown at ${Math.round(k * 100)} %` : ''}.` : `Preview at this column’s width; the frame keeps ${aspect![0]}:${aspect![1]} at any width.`}</p>
          <label className="share-field">
            <span>Embed code (paste into a page or a slide tool that takes HTML)</span>
            <textarea readOnly rows={4} value={code} data-testid="embed-code" onFocus={(e) => e.currentTarget.select()} />
          </label>
          <label className="share-field">
            <span>Link (opens the same view on its own)</span>
            <input type="text" readOnly value={link} data-testid="embed-link" onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="share-row">
            <button type="button" className="share-button" disabled={!code} onClick={() => p.onCopy(code, 'code')} data-testid="copy-embed-code">
              Copy embed code
            </button>
            <button type="button" className="share-button" disabled={!link} onClick={() => p.onCopy(link, 'link')} data-testid="copy-embed-link">
              Copy link
            </button>
          </div>
        </div>
      </div>
    </details>
  );
}
