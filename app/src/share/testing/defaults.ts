import { DEFAULT_SCENARIO } from '../../engine/generated/defaults';
import type { Scenario } from '../../engine/types';

/** The engine's default scenario (generated from engine-wasm/core/src/scenario.rs). */
export function engineDefaults(): Scenario {
  return structuredClone(DEFAULT_SCENARIO);
}
