// The page shell: waits for the engine, builds the lab state from the URL,
// and shows the selected view (the lab; a guided-labs view registers in
// lab/views.ts and renders below). Integration points for sharing/embedding
// are marked "share:".

import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { RenderMode } from './charts/TimeChart';
import type { EngineClient } from './engine/client';
import type { EngineError } from './engine/errors';
import type { EngineInfo, RunDebug } from './engine/protocol';
import { LabPage } from './lab/LabPage';
import { LabStore } from './lab/labStore';
import type { RunStore } from './lab/runStore';
import type { RenderedRun } from './lab/testHooks';
import { VIEWS, viewFromSearch } from './lab/views';
import { ErrorPanel } from './ui/ErrorPanel';
import { StartHere } from './ui/StartHere';
// guided labs (issue 7): the second view (app/src/labs), loaded when opened
// so the lab page's first load does not carry it.
const LabsView = lazy(() => import('./labs/LabsView').then((m) => ({ default: m.LabsView })));
// share: links, embed mode, exports, chart text alternatives (app/src/share).
import { loadFromUrl, resolveView } from './share/loadFromUrl';
import { Notices } from './share/Notices';
import { CHART_IDS, ChartAlternatives, ShareBridge, useEmbedChartHeight } from './share/ShareBridge';
import { useDocumentView } from './share/useShare';
import { parseView, type ViewOptions } from './share/view';
import './share/share.css';
import './share/dark.css';

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
  const viewId = viewFromSearch(search);
  const debugParam = params.get('debug');
  const debugFirstRun: RunDebug | undefined = debugParam === 'trap' || debugParam === 'crash' || debugParam === 'exit' ? debugParam : undefined;
  const render = params.get('render');
  const renderMode: RenderMode = render === 'svg' || render === 'canvas' ? render : 'auto';
  // share: embed mode and colour profile mark <html> at once (share.css).
  const earlyView = useMemo(() => parseView(search).view, [search]);
  useDocumentView(earlyView);
  const embedChartHeight = useEmbedChartHeight(
    earlyView.embed,
    earlyView.charts ? CHART_IDS.filter((c) => earlyView.charts!.includes(c)).length : CHART_IDS.length,
    loaded !== null,
  );

  useEffect(() => {
    let live = true;
    client.ready().then(
      (info) => {
        if (!live) return;
        // share: the scenario from the link (v=1 parameters, legacy ?seed/?rtt/?scenario),
        // checked by the engine; whatever is ignored becomes a notice.
        void loadFromUrl(search, info.defaultScenario, (s) => client.validate(s)).then((start) => {
          if (!live) return;
          const { view, notices } = resolveView(start.view, CHART_IDS, null);
          setLoaded({ info, lab: new LabStore(start.scenario, info.defaultScenario), notices: [...start.notices, ...notices], view });
        });
      },
      (e: EngineError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [client, search]);

  // Without an engine there is no lab: the page contract still reports it.
  useLayoutEffect(() => {
    if (!loadError) return;
    document.documentElement.dataset.runState = 'error';
    rendered.publish(null, 'error', loadError);
  }, [loadError, rendered]);

  return (
    <div className="app">
      <header className="app-header" data-embed-hide="">
        <h1>Sawtooth</h1>
        <p className="tagline">A TCP congestion-control lab: a packet-level simulator running in your browser.</p>
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
      {loadError && <ErrorPanel error={loadError} />}
      {!loaded && !loadError && (
        <p className="loading" role="status">
          Loading the simulator…
        </p>
      )}
      {loaded && viewId === 'lab' && !loaded.view.embed && <StartHere />}
      {loaded && viewId === 'lab' && (
        <LabPage
          lab={loaded.lab}
          store={store}
          catalogue={loaded.info.catalogue}
          profiles={loaded.info.profiles}
          rendered={rendered}
          debugFirstRun={debugFirstRun}
          renderMode={renderMode}
          // share: chosen charts and controls (?charts=, ?controls=; embed shows no builder unless asked).
          visibleCharts={loaded.view.charts}
          visibleControls={loaded.view.controls}
          hideBuilder={loaded.view.embed && !loaded.view.controls?.length}
          chartHeight={embedChartHeight}
          notices={<Notices notices={loaded.notices} />}
          footer={
            <ShareBridge
              lab={loaded.lab}
              store={store}
              view={loaded.view}
              defaults={loaded.info.defaultScenario}
              validate={(s) => client.validate(s)}
            />
          }
          renderChartExtra={(_id, chart) => <ChartAlternatives {...chart} />}
        />
      )}
      {/* guided labs: the second view (?view=labs, ?lab=<id>[&quick=0]). */}
      {loaded && viewId === 'labs' && (
        <Suspense fallback={<p className="loading" role="status">Loading the guided labs…</p>}>
          <LabsView defaults={loaded.info.defaultScenario} search={search} />
        </Suspense>
      )}
    </div>
  );
}
