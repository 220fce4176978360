// The page shell: waits for the engine, builds the lab state from the URL,
// and shows the selected view (the lab; a guided-labs view registers in
// lab/views.ts and renders below). Integration points for sharing/embedding
// are marked "share:".

import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RenderMode } from './charts/TimeChart';
import type { EngineClient } from './engine/client';
import type { EngineError } from './engine/errors';
import type { EngineInfo, RunDebug } from './engine/protocol';
import { LabPage } from './pages/LabPage';
import { LabStore } from './lab/labStore';
import type { RunStore } from './lab/runStore';
import type { RenderedRun } from './testHooks';
import { VIEWS, viewFromSearch } from './lab/views';
import { LINKABLE_CONTROL_IDS, type LinkableControlId } from './lab/controls';
import { ErrorPanel } from './ui/ErrorPanel';
import { StartHere } from './ui/StartHere';
import { StartPrediction } from './pages/StartPrediction';
import { startPredictionFromLink } from './pages/startPrediction';
import { PREDICTION_PARAM } from './share/prediction';
// guided labs (issue 7): the second view (app/src/guided), loaded when opened
// so the lab page's first load does not carry it.
const LabsView = lazy(() => import('./guided/LabsView').then((m) => ({ default: m.LabsView })));
// share: links, embed mode, exports, chart text alternatives (app/src/share).
import { loadFromUrl, resolveView } from './share/loadFromUrl';
import { Notices } from './share/Notices';
import { CHART_IDS } from './charts/specs';
import { PATH_CHART } from './path/PathView';

import { ChartAlternatives, ShareBridge } from './pages/ShareBridge';
import { resolveTheme, useSystemDark } from './share/theme';
import { useDocumentView } from './share/useShare';
import { DEFAULT_VIEW, isFitted, parseView, type ViewOptions } from './share/view';
import './share/share.css';
import './share/dark.css';
// Fitted views (embed, presentation), presentation mode (app/src/present).
import { ChartSizingContext, PROJECTOR_TYPE_SCALE, type ChartSizing } from './charts/chartSizing';
import { exitFullscreen, toggleFullscreen } from './present/fullscreen';
import { LabStepper } from './present/LabStepper';
import { PresentBar } from './present/PresentBar';
import { useFitLayout } from './present/useFitLayout';
import { pressPlaybackButton, usePresentKeys } from './present/usePresentKeys';
import './present/fit.css';
import './present/present.css';

/** What `charts=` may list: the time charts and the path view. */
const VIEW_CHART_IDS: readonly string[] = [...CHART_IDS, PATH_CHART];

/** controls= id that shows the playback bar in an embed (not a scenario control). */
const PLAYBACK_CONTROL = 'playback';

export interface AppProps {
  client: EngineClient;
  store: RunStore;
  rendered: RenderedRun;
  search: string;
}

interface Loaded {
  info: EngineInfo;
  lab: LabStore;
  notices: string[];
  /** share: embed mode, charts and controls shown, colour profile. */
  view: ViewOptions;
}

export function App({ client, store, rendered, search }: AppProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<EngineError | null>(null);
  const params = useMemo(() => new URLSearchParams(search), [search]);
  // The bottleneck's trace control asks the run worker's engine to read a file.
  const readTrace = useCallback((text: string, name: string) => client.readTrace(text, name), [client]);
  const viewId = viewFromSearch(search);
  // Predict, then run: the Start-here path's prediction in a lab-page link (a guided lab reads its own).
  const startPrediction = useMemo(() => startPredictionFromLink(params.get(PREDICTION_PARAM)), [params]);
  const debugParam = params.get('debug');
  const debugFirstRun: RunDebug | undefined = debugParam === 'trap' || debugParam === 'crash' || debugParam === 'exit' ? debugParam : undefined;
  const render = params.get('render');
  const renderMode: RenderMode = render === 'svg' || render === 'canvas' ? render : 'auto';
  // share: embed mode and colour profile mark <html> at once (share.css).
  const linkView = useMemo(() => parseView(search).view, [search]);
  // Presentation mode: from the link (present=1) or the header's Present button.
  const [presenting, setPresenting] = useState<boolean | null>(null);
  // A present=1 link without theme= is projected (parseView); leaving presentation mode leaves its projector theme too.
  const linkTheme = useMemo(() => (params.has('theme') || params.has('profile') ? { theme: linkView.theme, profile: linkView.profile } : { theme: DEFAULT_VIEW.theme, profile: DEFAULT_VIEW.profile }), [params, linkView]);
  const earlyView = useMemo<ViewOptions>(
    () =>
      presenting === null || presenting === linkView.present
        ? linkView
        : { ...linkView, present: presenting, ...(presenting ? { theme: 'projector', profile: 'projector' } : linkTheme) },
    [linkView, presenting, linkTheme],
  );
  const present = earlyView.present;
  // The lab page fills the window in embed and presentation modes; a guided lab pages through screens instead.
  const fitted = isFitted(earlyView) && viewId === 'lab';
  const controlIds = earlyView.controls?.filter((c): c is LinkableControlId => (LINKABLE_CONTROL_IDS as readonly string[]).includes(c)) ?? [];
  const pathChosen = !!earlyView.charts?.includes(PATH_CHART);
  const showPlayback = present || !!earlyView.controls?.includes(PLAYBACK_CONTROL);
  useDocumentView(earlyView, fitted, fitted && showPlayback);
  const { layout } = useFitLayout({
    enabled: fitted,
    frame: earlyView.embed ? earlyView.frame : null,
    charts: earlyView.charts ? VIEW_CHART_IDS.filter((c) => earlyView.charts!.includes(c)).length : CHART_IDS.length,
    controls: controlIds.length,
  });
  const projector = earlyView.profile === 'projector';
  const dark = resolveTheme(earlyView.theme, useSystemDark()) === 'dark';
  const sizing = useMemo<ChartSizing>(
    () => ({ fill: layout !== null, scale: (layout?.chartScale ?? 1) * (projector ? PROJECTOR_TYPE_SCALE : 1), lineScale: projector ? 2 : 1, dark }),
    [layout, projector, dark],
  );
  usePresentKeys('lab', present && viewId === 'lab', pressPlaybackButton);
  // Back to the page as it was: where it was scrolled to as well.
  const scrollBeforePresenting = useRef<number | null>(null);
  const startPresenting = () => {
    scrollBeforePresenting.current = window.scrollY;
    setPresenting(true);
    void toggleFullscreen();
  };
  const stopPresenting = () => {
    setPresenting(false);
    void exitFullscreen();
  };
  useEffect(() => {
    if (present || scrollBeforePresenting.current === null) return;
    const y = scrollBeforePresenting.current;
    scrollBeforePresenting.current = null;
    // After the page's own layout is back (its charts take their height in the next frames).
    requestAnimationFrame(() => requestAnimationFrame(() => window.scrollTo(0, y)));
  }, [present]);

  useEffect(() => {
    let live = true;
    client.ready().then(
      (info) => {
        if (!live) return;
        // share: the scenario from the link (v=1 parameters, legacy ?seed/?rtt/?scenario),
        // checked by the engine; whatever is ignored becomes a notice.
        void loadFromUrl(search, info.defaultScenario, (s) => client.validate(s)).then((start) => {
          if (!live) return;
          const { view, notices } = resolveView(start.view, VIEW_CHART_IDS, [...LINKABLE_CONTROL_IDS, PLAYBACK_CONTROL]);
          const predicted = viewId === 'lab' && startPrediction.notice ? [startPrediction.notice] : [];
          setLoaded({ info, lab: new LabStore(start.scenario, info.defaultScenario), notices: [...start.notices, ...notices, ...predicted], view });
        });
      },
      (e: EngineError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
    // (viewId and startPrediction follow search.)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, search]);

  // Without an engine there is no lab: the page contract still reports it.
  useLayoutEffect(() => {
    if (!loadError) return;
    document.documentElement.dataset.runState = 'error';
    rendered.publish(null, 'error', loadError);
  }, [loadError, rendered]);

  return (
    <div className="app">
      {viewId === 'lab' && !isFitted(earlyView) && (
        // Keyboard users reach the charts without tabbing through every control (about 80 stops).
        <a
          className="skip-link"
          href="#lab-charts"
          data-testid="skip-to-charts"
          onClick={(e) => {
            const charts = document.getElementById('lab-charts');
            if (!charts) return;
            e.preventDefault();
            charts.focus({ preventScroll: true });
            charts.scrollIntoView({ block: 'start' });
          }}
        >
          Skip to the charts
        </a>
      )}
      <header className="app-header" data-embed-hide="">
        <h1>Sawtooth</h1>
        <p className="tagline">A TCP congestion-control lab: a packet-level simulator running in your browser.</p>
        <button type="button" className="share-button present-start" onClick={startPresenting} data-testid="present" title="Full screen, projector colours, big type; keyboard shortcuts">
          Present
        </button>
        {VIEWS.length > 1 && (
          <nav className="views" aria-label="Views">
            {VIEWS.map((v) => (
              <a key={v.id} href={`?view=${v.id}`} aria-current={v.id === viewId ? 'page' : undefined}>
                {v.title}
              </a>
            ))}
          </nav>
        )}
      </header>
      {present && <PresentBar page={viewId === 'labs' ? 'labs' : 'lab'} onExit={stopPresenting} />}
      {loadError && <ErrorPanel error={loadError} />}
      {!loaded && !loadError && (
        <p className="loading" role="status">
          Loading the simulator…
        </p>
      )}
      {loaded && viewId === 'lab' && !isFitted(earlyView) && (
        <StartHere
          open={startPrediction.prediction.kind !== 'none'}
          predict={<StartPrediction lab={loaded.lab} store={store} initial={startPrediction.prediction} />}
        />
      )}
      {loaded && viewId === 'lab' && (
        <ChartSizingContext.Provider value={sizing}>
        <LabPage
          lab={loaded.lab}
          store={store}
          catalogue={loaded.info.catalogue}
          profiles={loaded.info.profiles}
          aqms={loaded.info.aqms}
          rendered={rendered}
          debugFirstRun={debugFirstRun}
          renderMode={renderMode}
          // share: chosen charts and controls (?charts=, ?controls=; embed shows no builder unless asked).
          visibleCharts={loaded.view.charts}
          visibleControls={fitted ? controlIds : loaded.view.controls}
          hideBuilder={fitted && controlIds.length === 0}
          readTrace={readTrace}
          // The path view: on the lab page; in fitted views (embeds, presentation) only with charts=path, as a cell of the grid.
          showPath={!fitted || pathChosen}
          pathInGrid={fitted && pathChosen}
          autoplay={earlyView.autoplay}
          playbackSpeed={earlyView.speed ?? undefined}
          notices={<Notices notices={loaded.notices} />}
          footer={
            <ShareBridge
              lab={loaded.lab}
              store={store}
              view={loaded.view}
              defaults={loaded.info.defaultScenario}
              validate={(s) => client.validate(s)}
              catalogue={loaded.info.catalogue}
            />
          }
          renderChartExtra={(_id, chart) => <ChartAlternatives {...chart} />}
        />
        </ChartSizingContext.Provider>
      )}
      {/* guided labs: the second view (?view=labs, ?lab=<id>[&quick=0]). */}
      {loaded && viewId === 'labs' && (
        <LabStepper active={present && params.has('lab')}>
          <Suspense fallback={<p className="loading" role="status">Loading the guided labs…</p>}>
            <LabsView defaults={loaded.info.defaultScenario} search={search} />
          </Suspense>
        </LabStepper>
      )}
    </div>
  );
}
