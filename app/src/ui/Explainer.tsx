// The explainer for the selected flow's algorithm, from the engine's
// catalogue: what it does, what to expect on the chart, its increase and
// decrease rules typeset with KaTeX (loaded when the explainer comes near the
// viewport, so it does not weigh on the first load), its parameters and sources.

import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { flowColor } from '../charts/palette';
import type { AlgorithmInfo } from '../engine/types';
import { GLOSSARY } from '../lab/glossary';

type Katex = typeof import('katex')['default'];
let katexPromise: Promise<Katex> | null = null;
function loadKatex(): Promise<Katex> {
  katexPromise ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([m]) => m.default);
  return katexPromise;
}

function Formula({ tex, label, visible }: { tex: string; label: string; visible: boolean }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    if (!visible) return;
    let live = true;
    loadKatex().then(
      (k) => live && setHtml(k.renderToString(tex, { throwOnError: false, displayMode: true, output: 'htmlAndMathml' })),
      () => live && setHtml(null),
    );
    return () => {
      live = false;
    };
  }, [tex, visible]);
  return (
    <div className="formula" data-testid={`formula-${label}`} data-tex={tex}>
      <span className="formula-label">{label}</span>
      {html ? <div className="katex-host" dangerouslySetInnerHTML={{ __html: html }} /> : <code>{tex}</code>}
    </div>
  );
}

/** True once the element has come near the viewport (KaTeX loads only then, not on the first load). */
function useNearViewport(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near || !enabled) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '100px' });
    io.observe(el);
    return () => io.disconnect();
  }, [ref, near, enabled]);
  return near;
}

export interface ExplainerProps {
  info: AlgorithmInfo | null;
  flow: number;
  /** Typeset formulas once this is true (the page's first run is on screen; the layout has settled). */
  ready?: boolean;
}

export const Explainer = memo(function Explainer({ info, flow, ready = true }: ExplainerProps) {
  const box = useRef<HTMLElement>(null);
  const visible = useNearViewport(box, ready);
  return (
    <section ref={box} className="explainer" aria-labelledby="explainer-h" data-testid="explainer" data-algorithm={info?.id}>
      <h2 id="explainer-h">
        <span className="flow-dot" style={{ background: flowColor(flow) }} aria-hidden="true" /> {info ? info.name : 'Algorithm'}{' '}
        <span className="muted">(flow {flow})</span>
      </h2>
      {info ? (
        <>
          <p>{info.explanation}</p>
          <p className="expect">
            <strong>On the cwnd chart:</strong> {info.expect_on_chart}
          </p>
          <div className="formulas">
            <Formula tex={info.increase_tex} label="increase" visible={visible} />
            <Formula tex={info.decrease_tex} label="decrease" visible={visible} />
          </div>
          {info.params.length > 0 && (
            <dl className="params">
              {info.params.map((p) => (
                <div key={p.id}>
                  <dt>
                    {p.name} <span className="muted">(default {p.default}{p.unit && p.unit !== 'on/off' ? ` ${p.unit}` : ''})</span>
                  </dt>
                  <dd>{p.description}</dd>
                </div>
              ))}
            </dl>
          )}
          {info.citations.length > 0 && (
            <ul className="citations">
              {info.citations.map((c) => (
                <li key={c.label}>
                  <strong>{c.label}.</strong> {c.reference}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="muted">This algorithm is not in the engine’s catalogue.</p>
      )}
      <details className="glossary">
        <summary>Glossary</summary>
        <dl>
          {Object.values(GLOSSARY).map((g) => (
            <div key={g.term}>
              <dt>{g.term}</dt>
              <dd>{g.text}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
});
