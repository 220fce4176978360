// Scenario overrides from the page URL:
//   ?seed=N        the run's random seed (deterministic runs)
//   ?rtt=MS        the initial RTT
//   ?scenario=JSON a whole scenario document (URL-encoded), replacing the default

import type { Scenario } from '../engine/types';

export interface UrlScenario {
  scenario: Scenario;
  /** Problems with the URL parameters (the parameter is then ignored). */
  errors: string[];
}

const MAX_SEED = 4294967295;

export function scenarioFromUrl(search: string, defaults: Scenario): UrlScenario {
  const params = new URLSearchParams(search);
  const errors: string[] = [];
  let scenario: Scenario = structuredClone(defaults);

  const doc = params.get('scenario');
  if (doc !== null) {
    try {
      const parsed: unknown = JSON.parse(doc);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      // Passed to the engine as is: it reports any invalid field.
      scenario = parsed as Scenario;
    } catch (e) {
      errors.push(`?scenario= is not a JSON object (${(e as Error).message}); using the default scenario`);
    }
  }

  const seed = params.get('seed');
  if (seed !== null) {
    const n = Number(seed);
    if (seed.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= MAX_SEED) scenario = { ...scenario, seed: n };
    else errors.push(`?seed=${seed} must be an integer between 0 and ${MAX_SEED}; using seed ${scenario.seed}`);
  }

  const rtt = params.get('rtt');
  if (rtt !== null) {
    const n = Number(rtt);
    if (rtt.trim() !== '' && Number.isFinite(n)) scenario = { ...scenario, rtt_ms: n };
    else errors.push(`?rtt=${rtt} is not a number; using ${scenario.rtt_ms} ms`);
  }
  return { scenario, errors };
}
