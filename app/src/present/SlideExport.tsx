// "For slides" in the share panel, for slide tools that cannot hold an
// iframe: the run's playback as a WebM video at a chosen size and speed
// (encodeVideo.ts), and any chart as a slide-sized PNG with type sized for
// a lecture hall.

import { useId, useRef, useState } from 'react';
import type { RunSeries } from '../engine/columns';
import type { EngineEvent, Scenario } from '../engine/types';
import { SPEEDS } from '../lab/playback';
import { downloadBlob } from '../share/download';
import type { Size } from './frameLayout';
import type { ChartView } from './slideCharts';
import { SLIDE_THEMES } from './slideThemes';
import { canRecordVideo } from './videoSupport';

/** The drawing and encoding code, fetched on the first export (not part of the first load). */
const loadRender = () => import('./slideRender');

export const SLIDE_SIZES: readonly Size[] = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
  { width: 1024, height: 768 },
];

const FPS = 30;

type ThemeId = keyof typeof SLIDE_THEMES;

export interface SlideExportProps {
  scenario: Scenario | null;
  series: RunSeries | null;
  events: readonly EngineEvent[];
  /** The charts shown on the page (ids and titles), in order. */
  charts: { id: string; title: string }[];
  chartView: ChartView;
  /** File name stem (algorithms, RTT, seed). */
  stem: string;
  /** Algorithm names by id (the engine's catalogue), for the legend and the caption. */
  names?: Record<string, string>;
  onStatus(text: string): void;
}

export function SlideExport(p: SlideExportProps) {
  const uid = useId();
  const [sizeIndex, setSizeIndex] = useState(1);
  const [theme, setTheme] = useState<ThemeId>('projector');
  const [speed, setSpeed] = useState(1);
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const size = SLIDE_SIZES[sizeIndex];
  const ready = p.series !== null && p.series.length > 0 && p.scenario !== null;
  const duration = p.scenario ? p.scenario.duration_ms / 1000 : 0;
  const lengthS = duration / speed;
  const canVideo = canRecordVideo();
  const sizeName = `${size.width}x${size.height}`;

  const slidePng = async (id: string, title: string) => {
    if (!p.series || !p.scenario) return;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const { drawSlide, scenarioCaption, slideCharts, slideLayout, slideLegend } = await loadRender();
    const charts = slideCharts(p.series, p.scenario, p.chartView, [id]);
    const names = p.names ?? {};
    // The caption (algorithms, rate, RTT, buffer) and the legend (flows, line styles) on every slide.
    const content = {
      charts,
      events: p.events,
      duration,
      dashes: true,
      header: { left: scenarioCaption(p.scenario, names), right: '' },
      legend: slideLegend(p.scenario, names, charts.map((c) => c.spec)),
    };
    drawSlide(ctx, slideLayout(size, 1, true, true), content, duration, SLIDE_THEMES[theme]);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) {
      p.onStatus('The slide PNG could not be encoded.');
      return;
    }
    downloadBlob(blob, `${p.stem}-${id}-${sizeName}.png`);
    p.onStatus(`${title} saved as a ${size.width} × ${size.height} PNG.`);
  };

  const video = async () => {
    if (!p.series || !p.scenario) return;
    const { clockText, drawSlide, encodeWebm, scenarioCaption, slideCharts, slideLayout, slideLegend } = await loadRender();
    const ids = p.charts.map((c) => c.id);
    const charts = slideCharts(p.series, p.scenario, p.chartView, ids);
    const layout = slideLayout(size, charts.length, true, true);
    const names = p.names ?? {};
    const caption = scenarioCaption(p.scenario, names);
    const legend = slideLegend(p.scenario, names, charts.map((c) => c.spec));
    const ac = new AbortController();
    abort.current = ac;
    setProgress(0);
    p.onStatus(`Making ${lengthS.toFixed(1)} s of video…`);
    try {
      const blob = await encodeWebm({
        width: size.width,
        height: size.height,
        fps: FPS,
        lengthMs: lengthS * 1000,
        signal: ac.signal,
        onProgress: setProgress,
        draw: (ctx, timeMs) => {
          const t = Math.min(duration, (timeMs / 1000) * speed);
          drawSlide(ctx, layout, { charts, events: p.events, duration, header: { left: caption, right: clockText(t, duration) }, legend }, t, SLIDE_THEMES[theme]);
        },
      });
      downloadBlob(blob, `${p.stem}-playback-${sizeName}-${speed}x.webm`);
      p.onStatus(`Video saved: ${size.width} × ${size.height}, ${lengthS.toFixed(1)} s (${speed}× real time).`);
    } catch (e) {
      p.onStatus((e as Error).name === 'AbortError' ? 'Recording cancelled.' : `The video could not be recorded: ${(e as Error).message}`);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  const recording = progress !== null;
  return (
    <fieldset className="slide-export" data-testid="slide-export">
      <legend>For slides (video and slide-sized images)</legend>
      <div className="share-row">
        <label className="eb-inline" htmlFor={`${uid}-size`}>
          Size
        </label>
        <select id={`${uid}-size`} value={sizeIndex} onChange={(e) => setSizeIndex(Number(e.currentTarget.value))} disabled={recording} data-testid="slide-size">
          {SLIDE_SIZES.map((s, i) => (
            <option key={i} value={i}>
              {s.width} × {s.height}
            </option>
          ))}
        </select>
        <label className="eb-inline" htmlFor={`${uid}-theme`}>
          Colours
        </label>
        <select id={`${uid}-theme`} value={theme} onChange={(e) => setTheme(e.currentTarget.value as ThemeId)} disabled={recording} data-testid="slide-theme">
          <option value="projector">Projector</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
        <label className="eb-inline" htmlFor={`${uid}-speed`}>
          Speed
        </label>
        <select id={`${uid}-speed`} value={speed} onChange={(e) => setSpeed(Number(e.currentTarget.value))} disabled={recording} data-testid="slide-speed">
          {SPEEDS.map((v) => (
            <option key={v} value={v}>
              {v}× real time
            </option>
          ))}
        </select>
      </div>
      <div className="share-row">
        {!recording ? (
          <button type="button" className="share-button" disabled={!ready || !canVideo} onClick={() => void video()} data-testid="export-video">
            Video of the playback (WebM, {lengthS >= 0.05 ? `${Number(lengthS.toFixed(1))} s` : '–'})
          </button>
        ) : (
          <button type="button" className="share-button" onClick={() => abort.current?.abort()} data-testid="export-video-cancel">
            Cancel the video
          </button>
        )}
        {recording && <progress max={1} value={progress} aria-label="Recording the video" data-testid="video-progress" />}
        {!canVideo && <span className="hint">This browser cannot record video (MediaRecorder with WebM).</span>}
      </div>
      <div className="share-row" role="group" aria-label="Slide-sized PNG of a chart">
        {p.charts.map((c) => (
          <button key={c.id} type="button" className="share-button" disabled={!ready || recording} onClick={() => void slidePng(c.id, c.title)} data-testid={`export-${c.id}-slide-png`}>
            {c.title}: slide PNG
          </button>
        ))}
      </div>
    </fieldset>
  );
}
