// The explainer for the selected flow's algorithm, from the engine's
// catalogue: what it does, what to expect on the chart, its increase and
// decrease rules typeset with KaTeX, its parameters and sources.
//
// KaTeX is not part of the first load: it is fetched once the page's first
// run is on screen, when the browser is next idle (or earlier, when the
// explainer comes near the viewport), and every formula is typeset as soon as
// it is there, scrolled into view or not, so a printout or a full-page
// capture shows typeset formulas; before printing, formulas are typeset at
// once if KaTeX is loaded. Formulas are display-style but may break after
// their top-level relations and operators, so long ones (BBR's) wrap inside
// their box instead of overflowing it.

import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { flowColor } from '../charts/palette';
import type { AlgorithmInfo } from '../engine/types';
import { GLOSSARY } from '../lab/glossary';
import { unitFor } from '../lab/units';

type Katex = typeof import('katex')['default'];
let katexPromise: Promise<Katex> | null = null;
/** KaTeX once loaded (formulas rendered after that typeset synchronously). */
let katexLoaded: Katex | null = null;
function loadKatex(): Promise<Katex> {
  katexPromise ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([m]) => (katexLoaded = m.default));
  return katexPromise;
}

/** Display-style math in inline mode: KaTeX may then break the line after top-level relations and binary operators. */
function typeset(k: Katex, tex: string): string {
  return k.renderToString(`\\displaystyle ${tex}`, { throwOnError: false, displayMode: false, output: 'htmlAndMathml' });
}

function Formula({ tex, label, katex }: { tex: string; label: string; katex: Katex | null }) {
  const html = useMemo(() => {
    if (!katex) return null;
    try {
      return typeset(katex, tex);
    } catch {
      return null;
    }
  }, [katex, tex]);
  const host = useRef<HTMLDivElement>(null);
  const scrolls = useFitFormula(host, html);
  return (
    <div className="formula" data-testid={`formula-${label}`} data-tex={tex} data-typeset={html ? 'true' : 'false'}>
      <span className="formula-label">{label}</span>
      {html ? (
        <div
          ref={host}
          className="katex-host"
          dangerouslySetInnerHTML={{ __html: html }}
          // Only when a formula still does not fit: its box scrolls, so it can be reached by keyboard.
          {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label} formula` } : {})}
        />
      ) : (
        <code>{tex}</code>
      )}
    </div>
  );
}

/** Least scale of a formula that does not fit its box (below it, the box scrolls instead). */
const MIN_FORMULA_SCALE = 0.75;

/**
 * A typeset formula wraps after its relations and operators; a piece that
 * cannot break and is wider than the box (FAST's min{…}) is scaled down to
 * fit, to MIN_FORMULA_SCALE at most; past that the box scrolls (returns true).
 * Measured again when the box's width changes and when the fonts are loaded.
 */
function useFitFormula(ref: RefObject<HTMLDivElement | null>, html: string | null): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !html) return;
    let lastWidth = -1;
    const measure = (force: boolean) => {
      const k = el.querySelector<HTMLElement>('.katex');
      if (!k || (!force && el.clientWidth === lastWidth)) return;
      lastWidth = el.clientWidth;
      k.style.fontSize = '';
      const need = el.scrollWidth;
      const have = el.clientWidth;
      if (have > 0 && need > have + 1) {
        const base = parseFloat(getComputedStyle(k).fontSize);
        const scale = Math.max(MIN_FORMULA_SCALE, (have / need) * 0.98);
        k.style.fontSize = `${base * scale}px`;
      }
      setScrolls(el.scrollWidth > el.clientWidth + 1);
    };
    measure(true);
    let live = true;
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
    const onFonts = () => live && measure(true);
    fonts?.ready.then(onFonts);
    fonts?.addEventListener?.('loadingdone', onFonts);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => measure(false));
    ro?.observe(el);
    return () => {
      live = false;
      fonts?.removeEventListener?.('loadingdone', onFonts);
      ro?.disconnect();
    };
  }, [ref, html]);
  return scrolls;
}

/**
 * KaTeX for the explainer: loaded once `enabled` (the first run is on screen)
 * when the browser is idle, or at once when the explainer comes near the
 * viewport or the page is about to print.
 */
function useKatex(ref: RefObject<HTMLElement | null>, enabled: boolean): Katex | null {
  const [katex, setKatex] = useState<Katex | null>(katexLoaded);
  useEffect(() => {
    if (katex) return;
    let live = true;
    const load = () => {
      loadKatex().then(
        (k) => live && setKatex(k),
        () => undefined,
      );
    };
    // Before printing: typeset now if KaTeX is there (the print is laid out right after this handler).
    const beforePrint = () => {
      if (katexLoaded) {
        const k = katexLoaded;
        flushSync(() => setKatex(k));
      } else load();
    };
    window.addEventListener('beforeprint', beforePrint);
    const cleanups: (() => void)[] = [() => window.removeEventListener('beforeprint', beforePrint)];
    if (enabled) {
      if (typeof requestIdleCallback === 'function') {
        const h = requestIdleCallback(load, { timeout: 1500 });
        cleanups.push(() => cancelIdleCallback(h));
      } else {
        const h = setTimeout(load, 200);
        cleanups.push(() => clearTimeout(h));
      }
      const el = ref.current;
      if (el && typeof IntersectionObserver !== 'undefined') {
        const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), { rootMargin: '200px' });
        io.observe(el);
        cleanups.push(() => io.disconnect());
      }
    }
    return () => {
      live = false;
      for (const c of cleanups) c();
    };
  }, [ref, enabled, katex]);
  return katex;
}

export interface ExplainerProps {
  info: AlgorithmInfo | null;
  flow: number;
  /** Load KaTeX once this is true (the page's first run is on screen; the layout has settled). */
  ready?: boolean;
}

export const Explainer = memo(function Explainer({ info, flow, ready = true }: ExplainerProps) {
  const box = useRef<HTMLElement>(null);
  const katex = useKatex(box, ready);
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
            <Formula tex={info.increase_tex} label="increase" katex={katex} />
            <Formula tex={info.decrease_tex} label="decrease" katex={katex} />
          </div>
          {info.params.length > 0 && (
            <dl className="params">
              {info.params.map((p) => (
                <div key={p.id}>
                  <dt>
                    {p.name} <span className="muted">(default {p.default}{p.unit && p.unit !== 'on/off' ? ` ${unitFor(p.default, p.unit)}` : ''})</span>
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
