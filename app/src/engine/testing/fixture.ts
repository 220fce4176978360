// The scenario the app's unit tests are written against: Long's (Sandia,
// 2003) jumbo-frame path, which was the engine's default until issue 24
// (1 Gb/s, 30 ms, MTU 9000, a 1000-packet buffer; everything else as the
// engine's default today). Pinned here so that the tests' numbers (BDPs,
// link capacities, dots per packet) do not move when the engine's default
// does; the default itself is checked by the engine's tests
// (core/tests/default_scenario.rs) and e2e/skeleton.spec.ts.

import { DEFAULT_SCENARIO } from '../generated/defaults';
import type { Scenario } from '../types';

export const JUMBO_SCENARIO: Scenario = {
  ...DEFAULT_SCENARIO,
  mtu_bytes: 9000,
  rtt_ms: 30,
  bottleneck: { ...DEFAULT_SCENARIO.bottleneck, rate_bps: 1e9, buffer_pkts: 1000 },
  hosts: DEFAULT_SCENARIO.hosts.map((h) => ({ ...h, nic_bps: 1e9 })),
};
