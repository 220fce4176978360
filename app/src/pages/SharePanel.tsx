// Share and export: copy link, copy embed code, CSV of the run, SVG/PNG of
// each chart, scenario JSON download and upload (checked by the engine).

import { useId, useRef, useState } from 'react';
import type { RunSeries } from '../engine/columns';
import type { EngineEvent, RunSummary, Scenario } from '../engine/types';
import { downloadBlob, downloadText, fileStem } from '../share/download';
import { SlideExport } from '../present/SlideExport';
import { slideCharts, type ChartView } from '../present/slideCharts';
import { scenarioCaption, slideLegend } from '../present/slideLayout';
import type { ExportHeader } from '../share/chartExport';
import { EmbedBuilder } from '../share/EmbedBuilder';
import { DEFAULT_CHOICE, embedLink, iframeSnippet, type EmbedChoice } from '../share/embedCode';
import { shareUrl } from '../share/links';
import { withLinkPrediction } from '../share/prediction';
import type { Validate } from '../share/sanitize';
import { scenarioJson } from '../share/scenarioFile';
import type { UploadProblems } from '../share/upload';
import { checkUploadInWorker } from '../share/uploadClient';
import { clip } from '../share/urlCodec';

export interface ShareChart {
  /** Chart id (cwnd, throughput, …): the chart is [data-testid="chart-<id>"]. */
  id: string;
  title: string;
}

export interface SharePanelProps {
  scenario: Scenario | null;
  defaults: Scenario | null;
  series: RunSeries | null;
  events: readonly EngineEvent[];
  summary: RunSummary | null;
  charts: ShareChart[];
  /** How the page draws the charts (cwnd unit, throughput averaging), for slide images and video. */
  chartView?: ChartView;
  /** Every chart the embed builder offers (default: `charts`). */
  builderCharts?: ShareChart[];
  /** Algorithm names by id (the engine's catalogue), for the slides' legend and caption. */
  algorithmNames?: Record<string, string>;
  /** Charts and controls put in the embed code. */
  embedCharts?: string[];
  embedControls?: string[];
  /** The engine's check on this thread, for uploads where no worker of their own can be started. */
  validate: Validate;
  /** Load an uploaded scenario (already checked by the engine). */
  onLoad(scenario: Scenario, notices: string[]): void;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Writers of CSV and chart images, fetched on the first export (not part of the first load). */
const loadCsv = () => import('../share/csv');
const loadChartExport = () => import('../share/chartExport');

/** What each CSV export holds, for the status line. */
const CSV_TITLES = { series: 'Sample series', events: 'Events', summary: 'Summary' } as const;

function chartElement(id: string): Element | null {
  return document.querySelector(`[data-testid="chart-${CSS.escape(id)}"]`);
}

export function SharePanel(p: SharePanelProps) {
  const uid = useId();
  const [status, setStatus] = useState('');
  const [choice, setChoice] = useState<EmbedChoice>(() => ({
    ...DEFAULT_CHOICE,
    charts: p.embedCharts ?? p.charts.slice(0, 2).map((c) => c.id),
    controls: p.embedControls ?? DEFAULT_CHOICE.controls,
  }));
  const [builderOpen, setBuilderOpen] = useState(false);
  const [link, setLink] = useState('');
  const [uploadErrors, setUploadErrors] = useState<UploadProblems | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  /** The latest upload: an earlier one that answers later is ignored. */
  const uploadSeq = useRef(0);
  const ready = p.scenario !== null && p.defaults !== null;

  const stem = () =>
    p.scenario
      ? fileStem({ algorithms: p.scenario.hosts.flatMap((h) => h.flows.map((f) => f.algorithm)), rttMs: p.scenario.rtt_ms, seed: p.scenario.seed })
      : 'sawtooth';

  const onCopyLink = async () => {
    if (!p.scenario || !p.defaults) return;
    // The Start-here path's prediction (pred=) travels with the link.
    const url = withLinkPrediction(shareUrl(window.location.href, p.scenario, p.defaults), window.location.search);
    setLink(url);
    setStatus((await copyText(url)) ? 'Link copied.' : 'Copy the link from the field below.');
  };

  // "Copy embed code" copies the builder's code as it stands and opens the builder to adjust it.
  const onCopyEmbed = async () => {
    if (!p.scenario || !p.defaults) return;
    setBuilderOpen(true);
    const code = iframeSnippet(embedLink(window.location.href, p.scenario, p.defaults, choice), choice.size);
    setStatus((await copyText(code)) ? 'Embed code copied.' : 'Copy the embed code from the embed builder below.');
  };
  const onCopyBuilt = async (text: string, what: 'code' | 'link') => {
    const name = what === 'code' ? 'Embed code' : 'Embed link';
    setStatus((await copyText(text)) ? `${name} copied.` : `Copy the ${name.toLowerCase()} from its field.`);
  };

  /** The title, scenario and legend an exported chart carries above its drawing (as the slide PNGs do). */
  const exportHeader = (c: ShareChart): ExportHeader => {
    if (!p.scenario || !p.series) return { title: c.title };
    const names = p.algorithmNames ?? {};
    const spec = slideCharts(p.series, p.scenario, p.chartView ?? { cwndUnit: 'packets', throughputAverageMs: 100 }, [c.id])[0]?.spec;
    return { title: c.title, caption: scenarioCaption(p.scenario, names), legend: slideLegend(p.scenario, names, spec ? [spec] : []) };
  };

  const exportChart = async (c: ShareChart, kind: 'svg' | 'png') => {
    const el = chartElement(c.id);
    const { chartCanvas, chartSvg, serializeChartSvg, svgToPng } = await loadChartExport();
    const svg = el && chartSvg(el);
    if (!el || !svg) {
      setStatus(`The ${c.title} chart is not on the page.`);
      return;
    }
    const ids = el.getAttribute('data-series-ids');
    // Lines are SVG paths at rest; while a run streams they are on a canvas.
    const lines = svg.querySelector('path.line, path[data-series]');
    const doc = serializeChartSvg(svg, {
      title: c.title,
      description: ids ? `series: ${ids}` : undefined,
      canvas: lines ? null : chartCanvas(el),
      header: exportHeader(c),
    });
    if (kind === 'svg') downloadBlob(new Blob([doc.text], { type: 'image/svg+xml' }), `${stem()}-${c.id}.svg`);
    else {
      try {
        downloadBlob(await svgToPng(doc.text, doc.width, doc.height), `${stem()}-${c.id}.png`);
      } catch (e) {
        setStatus(`PNG export failed: ${(e as Error).message}`);
        return;
      }
    }
    setStatus(`${c.title} saved as ${kind.toUpperCase()}.`);
  };

  const exportCsv = async (what: 'series' | 'events' | 'summary') => {
    const csv = await loadCsv();
    const text = what === 'series' ? p.series && csv.seriesCsv(p.series) : what === 'events' ? csv.eventsCsv(p.events) : p.summary && csv.summaryCsv(p.summary);
    if (!text) return;
    const name = `${stem()}-${what}.csv`;
    downloadText(text, name, 'text/csv');
    setStatus(`${CSV_TITLES[what]} saved as ${name}.`);
  };

  const downloadScenario = () => {
    if (!p.scenario) return;
    const name = `${stem()}.json`;
    downloadText(scenarioJson(p.scenario), name, 'application/json');
    setStatus(`Scenario saved as ${name}.`);
  };

  // The file is read, parsed and checked in a worker of its own
  // (share/uploadClient.ts); what comes back is bounded (at most
  // MAX_NOTICES lines and a count of the rest), whatever the file holds.
  const onUpload = async (file: File | undefined) => {
    if (!file || !p.defaults) return;
    const seq = ++uploadSeq.current;
    setUploadErrors(null);
    setStatus(`Checking ${clip(file.name, 60)}…`);
    const out = await checkUploadInWorker(file, p.defaults, p.validate);
    if (seq !== uploadSeq.current) return;
    setUploadErrors(out.problems);
    if (out.scenario) p.onLoad(out.scenario, out.notices);
    setStatus(out.status);
    if (fileRef.current) fileRef.current.value = '';
  };

  const hasRun = p.series !== null && p.series.length > 0;
  return (
    <section className="share-panel" aria-labelledby={`${uid}-h`} data-testid="share-panel">
      <h2 id={`${uid}-h`}>Share and export</h2>
      <div className="share-row" role="group" aria-label="Share">
        <button type="button" className="share-button" onClick={onCopyLink} disabled={!ready} data-testid="copy-link">
          Copy link
        </button>
        <button type="button" className="share-button" onClick={onCopyEmbed} disabled={!ready} data-testid="copy-embed">
          Copy embed code
        </button>
      </div>
      {link && (
        <label className="share-field">
          <span>Link</span>
          <input type="text" readOnly value={link} data-testid="share-link" onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
      <EmbedBuilder
        scenario={p.scenario}
        defaults={p.defaults}
        charts={p.builderCharts ?? p.charts}
        choice={choice}
        onChoice={setChoice}
        open={builderOpen}
        onOpen={setBuilderOpen}
        onCopy={(text, what) => void onCopyBuilt(text, what)}
      />
      <div className="share-row" role="group" aria-label="Export the run as CSV">
        <button type="button" className="share-button" disabled={!hasRun} data-testid="export-series-csv" onClick={() => void exportCsv('series')}>
          Series CSV
        </button>
        <button type="button" className="share-button" disabled={!hasRun} data-testid="export-events-csv" onClick={() => void exportCsv('events')}>
          Events CSV
        </button>
        <button type="button" className="share-button" disabled={!p.summary} data-testid="export-summary-csv" onClick={() => void exportCsv('summary')}>
          Summary CSV
        </button>
      </div>
      <div className="share-row" role="group" aria-label="Export the charts">
        {p.charts.map((c) => (
          <span key={c.id} className="share-chart-export">
            <span className="share-chart-name">{c.title}</span>
            <button type="button" className="share-button" disabled={!hasRun} data-testid={`export-${c.id}-svg`} aria-label={`${c.title} chart as SVG`} onClick={() => void exportChart(c, 'svg')}>
              SVG
            </button>
            <button type="button" className="share-button" disabled={!hasRun} data-testid={`export-${c.id}-png`} aria-label={`${c.title} chart as PNG`} onClick={() => void exportChart(c, 'png')}>
              PNG
            </button>
          </span>
        ))}
      </div>
      <SlideExport
        scenario={p.scenario}
        series={p.series}
        events={p.events}
        charts={p.charts}
        chartView={p.chartView ?? { cwndUnit: 'packets', throughputAverageMs: 100 }}
        stem={stem()}
        names={p.algorithmNames}
        onStatus={setStatus}
      />
      <div className="share-row" role="group" aria-label="Scenario file">
        <button type="button" className="share-button" disabled={!ready} data-testid="download-scenario" onClick={downloadScenario}>
          Download scenario (JSON)
        </button>
        <label className="share-upload">
          <span>Upload scenario (JSON)</span>
          <input ref={fileRef} type="file" accept=".json,application/json" disabled={!ready} data-testid="upload-scenario" onChange={(e) => void onUpload(e.currentTarget.files?.[0])} />
        </label>
      </div>
      {uploadErrors && (
        <div className="share-errors" role="alert" data-testid="upload-errors">
          <p>{uploadErrors.title}</p>
          <ul>
            {uploadErrors.items.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <p className="share-status" role="status" aria-live="polite" data-testid="share-status">
        {status}
      </p>
    </section>
  );
}
