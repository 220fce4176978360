// The guided labs' page-wide pieces: the lab service and the sweep pool
// (started once, on first use), and the view's URL parameters.

import { defaultPoolSize, SweepPool } from './pool';
import { LabService } from './service';
import { createLabModuleWorker } from './workerClient';

export interface LabsEnv {
  service: LabService;
  pool: SweepPool;
  /** The lab's faithful results computed ahead and shipped with the site (public/results/<lab>.csv), or null. */
  ahead?: (labId: string) => Promise<string | null>;
}

/** The faithful results shipped with the site (scripts/faithful-results.sh writes them; issue 27). */
export async function fetchAhead(labId: string): Promise<string | null> {
  const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  const res = await fetch(`${base}results/${encodeURIComponent(labId)}.csv`);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

let env: LabsEnv | null = null;

export function labsEnv(): LabsEnv {
  if (!env) {
    const hc = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined;
    env = { service: new LabService(createLabModuleWorker), pool: new SweepPool(defaultPoolSize(hc), createLabModuleWorker), ahead: fetchAhead };
  }
  return env;
}

/** ?lab=3 or ?lab=txqueuelen; ?quick=0 for the faithful scale (default quick); ?debug=trap:N,crash:N. */
export function labsParams(search: string): { lab: string | null; quick: boolean; debug: string | null } {
  const p = new URLSearchParams(search);
  const q = p.get('quick');
  return { lab: p.get('lab'), quick: !(q === '0' || q === 'false' || q === 'full'), debug: p.get('debug') };
}

export function labHref(id: string, quick = true): string {
  return `?lab=${encodeURIComponent(id)}${quick ? '' : '&quick=0'}`;
}
