// The page shell: waits for the engine, builds the lab state from the URL,
// and shows the selected view (the lab; a guided-labs view registers in
// lab/views.ts and renders below). Integration points for sharing/embedding
// are marked "share:".

import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { RenderMode } from './charts/TimeChart';
import type { EngineClient } from './engine/client';
import type { EngineError } from './engine/errors';
import type { EngineInfo, RunDebug } from './engine/protocol';
import { LabPage } from './lab/LabPage';
import { LabStore } from './lab/labStore';
import { scenarioFromUrl } from './lab/params';
import type { RunStore } from './lab/runStore';
import type { RenderedRun } from './lab/testHooks';
import { VIEWS, viewFromSearch } from './lab/views';
import { ErrorPanel } from './ui/ErrorPanel';

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
}

export function App({ client, store, rendered, search }: AppProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<EngineError | null>(null);
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const viewId = viewFromSearch(search);
  const debugFirstRun: RunDebug | undefined = params.get('debug') === 'trap' ? 'trap' : params.get('debug') === 'crash' ? 'crash' : undefined;
  const render = params.get('render');
  const renderMode: RenderMode = render === 'svg' || render === 'canvas' ? render : 'auto';

  useEffect(() => {
    let live = true;
    client.ready().then(
      (info) => {
        if (!live) return;
        // share: the scenario from the link (scenarioFromUrl reads ?seed, ?rtt, ?scenario).
        const { scenario, errors } = scenarioFromUrl(search, info.defaultScenario);
        setLoaded({ info, lab: new LabStore(scenario, info.defaultScenario), notices: errors });
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
      <header className="app-header">
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
      {loaded && viewId === 'lab' && (
        <LabPage
          lab={loaded.lab}
          store={store}
          catalogue={loaded.info.catalogue}
          rendered={rendered}
          debugFirstRun={debugFirstRun}
          renderMode={renderMode}
          notices={
            loaded.notices.length > 0 ? (
              <div className="notices">
                {loaded.notices.map((n) => (
                  <p key={n} className="field-error" role="alert" data-testid="url-notice">
                    {n}
                  </p>
                ))}
              </div>
            ) : null
          }
        />
      )}
      {/* guided labs: render the second view here when viewId === 'labs'. */}
    </div>
  );
}
