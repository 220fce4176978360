// Presentation mode in a guided lab: one screen at a time, question →
// prediction → run (with the first result chart) → each further chart on a
// screen of its own → what the runs show → the paper beside the
// simulation (labScreens.ts). Every screen fits the window: type follows
// the window's height, the screen's chart takes what the text leaves, and
// text that does not fit goes on to further pages of the same screen
// (useScreenPaging.ts). The lab's own view (guided/LabDetail.tsx) is
// unchanged: it registers its charts here (LabStepperContext), marks the
// chart of the current screen, and present.css shows the sections of the
// current screen (data-step).

import { createContext, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ChartSizingContext, DEFAULT_SIZING } from '../charts/chartSizing';
import { labScreens, presentChartSizing, presentFontPx, type ChartScreenSpec } from './labScreens';
import { usePresentKeys } from './usePresentKeys';
import { useScreenPaging } from './useScreenPaging';

export interface LabStepperState {
  /** Presentation mode is on (a guided lab, one screen at a time). */
  active: boolean;
  /** The current screen's id (`data-step`), or null when not presenting. */
  step: string | null;
  /** The lab's result charts, in order (each gets a screen; [] when the lab goes). */
  setCharts(charts: readonly ChartScreenSpec[]): void;
}

export const LabStepperContext = createContext<LabStepperState>({ active: false, step: null, setCharts: () => {} });

/** The root font size while presenting (from the window's size), px; 0 when not presenting. */
function usePresentFont(active: boolean): number {
  const [px, setPx] = useState(0);
  useLayoutEffect(() => {
    if (!active) {
      setPx(0);
      return;
    }
    const el = document.documentElement;
    const apply = () => {
      const f = presentFontPx({ width: window.innerWidth, height: window.innerHeight });
      el.style.fontSize = `${f}px`;
      setPx(f);
    };
    apply();
    window.addEventListener('resize', apply);
    return () => {
      window.removeEventListener('resize', apply);
      el.style.removeProperty('font-size');
    };
  }, [active]);
  return px;
}

const sameCharts = (a: readonly ChartScreenSpec[], b: readonly ChartScreenSpec[]) => a.length === b.length && a.every((c, i) => c.id === b[i].id && c.title === b[i].title);

export function LabStepper({ active, children }: { active: boolean; children: ReactNode }) {
  const [charts, setChartsState] = useState<readonly ChartScreenSpec[]>([]);
  const setCharts = useCallback((c: readonly ChartScreenSpec[]) => setChartsState((prev) => (sameCharts(prev, c) ? prev : c)), []);
  const screens = useMemo(() => labScreens(charts), [charts]);
  const [stepId, setStepId] = useState('question');
  // The page asked for on the current screen (-1: its last, coming back to it).
  const [want, setWant] = useState(0);
  const step = Math.max(0, screens.findIndex((s) => s.id === stepId));
  const screen = screens[step];
  const body = useRef<HTMLDivElement>(null);
  const { page, pages } = useScreenPaging(body, active, screen.id, want);
  const fontPx = usePresentFont(active);
  const sizing = useMemo(() => (active && fontPx ? presentChartSizing(fontPx) : DEFAULT_SIZING), [active, fontPx]);
  const context = useMemo<LabStepperState>(() => ({ active, step: active ? screen.id : null, setCharts }), [active, screen.id, setCharts]);

  const goScreen = (i: number, lastPage = false) => {
    const j = Math.max(0, Math.min(screens.length - 1, i));
    setStepId(screens[j].id);
    setWant(lastPage ? -1 : 0);
  };
  const atStart = step === 0 && page === 0;
  const atEnd = step === screens.length - 1 && page >= pages - 1;
  const next = () => {
    if (page < pages - 1) setWant(page + 1);
    else if (step < screens.length - 1) goScreen(step + 1);
  };
  const previous = () => {
    if (page > 0) setWant(page - 1);
    else if (step > 0) goScreen(step - 1, true);
  };
  usePresentKeys('labs', active, (a) => {
    if (a === 'next-screen') next();
    else if (a === 'previous-screen') previous();
  });
  const part = pages > 1 ? ` (${page + 1}/${pages})` : '';

  return (
    <div
      className="lab-stepper"
      data-testid={active ? 'lab-stepper' : undefined}
      data-step={active ? screen.id : undefined}
      data-page={active ? page + 1 : undefined}
      data-pages={active ? pages : undefined}
    >
      {active && (
        <nav className="stepper-nav" aria-label="Lab screens">
          <button type="button" className="share-button" onClick={previous} disabled={atStart} data-testid="screen-previous" aria-keyshortcuts="ArrowLeft PageUp P">
            ← Back
          </button>
          <ol>
            {screens.map((s, i) => {
              const current = i === step;
              return (
                <li key={s.id}>
                  <button
                    type="button"
                    className="stepper-screen"
                    aria-current={current ? 'step' : undefined}
                    aria-label={`${i + 1}. ${s.title}${current ? part : ''}`}
                    title={s.title}
                    onClick={() => goScreen(i)}
                    data-screen={s.id}
                  >
                    {current ? `${i + 1}. ${s.short}${part}` : i + 1}
                  </button>
                </li>
              );
            })}
          </ol>
          <button type="button" className="share-button" onClick={next} disabled={atEnd} data-testid="screen-next" aria-keyshortcuts="ArrowRight PageDown N">
            Next →
          </button>
          <p className="sr-only" aria-live="polite">
            Screen {step + 1} of {screens.length}: {screen.title}
            {pages > 1 ? `, part ${page + 1} of ${pages}` : ''}
          </p>
        </nav>
      )}
      <div ref={body} className="stepper-body" data-testid={active ? 'lab-screen' : undefined}>
        <LabStepperContext.Provider value={context}>
          <ChartSizingContext.Provider value={sizing}>{children}</ChartSizingContext.Provider>
        </LabStepperContext.Provider>
      </div>
    </div>
  );
}
