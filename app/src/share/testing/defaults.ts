import type { Scenario } from '../../engine/types';

/** The engine's default scenario (engine-wasm/core/src/scenario.rs). */
export function engineDefaults(): Scenario {
  return {
    version: 2,
    seed: 1,
    duration_ms: 20000,
    sample_interval_ms: 10,
    mtu_bytes: 9000,
    rtt_ms: 30,
    loss_rate: 0,
    profile: 'linux-2.4',
    mechanisms: {},
    tcp: { initial_cwnd_pkts: 2, initial_ssthresh_pkts: null, delayed_ack: true, sack: true },
    bottleneck: { rate_bps: 1e9, buffer_pkts: 1000, aqm: { kind: 'drop_tail' } },
    hosts: [
      {
        nic_bps: 1e9,
        txqueuelen_pkts: 100,
        flows: [{ algorithm: 'reno', params: {}, window_bytes: 16777216, start_ms: 0, stop_ms: null, extra_delay_ms: 0 }],
      },
    ],
  };
}
