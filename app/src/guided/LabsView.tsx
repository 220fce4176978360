// The guided-labs view: the list of the guided labs (the papers' eleven experiments and four beyond them), and one
// lab opened by link (?lab=<id or number>, &quick=0 for the faithful scale):
// its guide, a one-click sweep across a pool of workers with progress, the
// results drawn as the papers draw them, the papers' values beside the
// simulation, and drill-down into any run.

import { useEffect, useMemo, useState } from 'react';
import type { LabsFile, PaperFile } from '../engine/generated/labs';
import type { Scenario } from '../engine/types';
import { shortCite } from './cite';
import { LabDetail } from './LabDetail';
import { labHref, labsEnv, labsParams } from './env';
import { runCount } from './presentation';
import { parsePointDebug } from './sweepStore';
import './labs.css';

export interface LabsViewProps {
  /** The engine's default scenario (drill-down links are written relative to it). */
  defaults: Scenario;
  search: string;
}

export function LabsView({ defaults, search }: LabsViewProps) {
  const e = labsEnv();
  const [meta, setMeta] = useState<{ labs: LabsFile; paper: PaperFile } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const params = useMemo(() => labsParams(search), [search]);
  const debug = useMemo(() => parsePointDebug(params.debug), [params.debug]);

  useEffect(() => {
    let live = true;
    e.service.meta().then(
      (m) => live && setMeta(m),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [e]);

  if (error)
    return (
      <section className="labs" data-testid="guided-labs" data-lab-state="error">
        <p className="field-error" role="alert">
          The guided labs could not load the engine: {error}
        </p>
      </section>
    );
  if (!meta)
    return (
      <section className="labs" data-testid="guided-labs" data-lab-state="loading">
        <p className="loading" role="status">
          Loading the guided labs…
        </p>
      </section>
    );

  const labs = meta.labs.labs;
  const wanted = params.lab;
  const lab = wanted === null ? null : (labs.find((l) => l.id === wanted) ?? labs.find((l) => String(l.number) === wanted) ?? null);
  if (lab)
    return (
      <LabDetail
        key={`${lab.id}:${params.quick}`}
        lab={lab}
        paper={meta.paper}
        quick={params.quick}
        env={e}
        defaults={defaults}
        debug={debug}
        labs={labs}
      />
    );

  return (
    <section className="labs" data-testid="guided-labs" data-lab-state="list" aria-labelledby="labs-title">
      <h2 id="labs-title">Guided labs: the papers’ experiments</h2>
      {wanted !== null && (
        <p className="field-error" role="alert" data-testid="lab-notice">
          There is no lab “{wanted}”; choose one below.
        </p>
      )}
      <p className="labs-intro">
        Each lab re-runs an experiment from the papers behind Sawtooth as a sweep of simulations, draws the results the way the paper drew them, and puts
        the paper’s published numbers beside the simulator’s. Predict first, then run. The quick version fits a browser; the faithful one uses the
        paper’s durations and repetitions.
      </p>
      <ol className="lab-list">
        {labs.map((l) => (
          <li key={l.id} data-lab-id={l.id}>
            <a href={labHref(l.id)} className="lab-card">
              <span className="lab-number">Lab {l.number}</span>
              <span className="lab-title">{l.title}</span>
              <span className="lab-summary">{l.summary}</span>
              <span className="lab-meta">
                {runCount(l, true)} runs (quick) · {[...new Set(l.sources.map((s) => shortCite(meta.paper, s.seed)))].join('; ')}
              </span>
            </a>
          </li>
        ))}
      </ol>
    </section>
  );
}
