import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { EngineClient } from './engine/client';
import { RunStore } from './lab/runStore';
import { installTestHooks, RenderedRun } from './lab/testHooks';
import './styles.css';

const client = new EngineClient();
const store = new RunStore(client);
const rendered = new RenderedRun();
installTestHooks(rendered);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} store={store} rendered={rendered} search={window.location.search} />
  </StrictMode>,
);
