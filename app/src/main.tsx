import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { EngineClient } from './engine/client';
import { RunStore } from './lab/runStore';
import { installTestHooks, RenderedRun } from './testHooks';
import { registerServiceWorker } from './share/serviceWorker';
import './styles.css';

const client = new EngineClient();
const store = new RunStore(client);
const rendered = new RenderedRun();
installTestHooks(rendered);
// Offline use after the first visit (issue 6): production builds only.
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} store={store} rendered={rendered} search={window.location.search} />
  </StrictMode>,
);
