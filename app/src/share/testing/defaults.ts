import { JUMBO_SCENARIO } from '../../engine/testing/fixture';
import type { Scenario } from '../../engine/types';

/** The defaults the share tests read links against: the tests' fixed scenario (engine/testing/fixture.ts, the engine's default until issue 24). */
export function engineDefaults(): Scenario {
  return structuredClone(JUMBO_SCENARIO);
}
