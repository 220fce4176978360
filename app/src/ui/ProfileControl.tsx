// The testbed profile: which kernel and host mechanisms the run models
// (docs/profiles.md). Each switch is listed with one line on what it does
// and where the chosen profile's value comes from; the catalogue is the
// engine's (profiles_json), never written twice.

import { memo } from 'react';
import type { ProfileCatalogue, Scenario, SwitchId } from '../engine/types';

/** Which scenario override keys belong to a switch. */
const OVERRIDE_KEYS: Record<SwitchId, string[]> = {
  cwnd_counting: ['cwnd_counting'],
  highspeed: ['highspeed'],
  scalable: ['scalable'],
  rto: ['rto', 'initial_rto_ms'],
  rto_restart: ['rto_restart'],
  recovery: ['recovery'],
  cwr: ['cwr'],
  lost_retransmit: ['lost_retransmit'],
  cwnd_limited: ['cwnd_limited'],
  small_queues: ['small_queue_limit_bytes'],
  cubic: ['cubic'],
  nic_ring: ['nic_ring_pkts', 'nic_ring_descriptors'],
  tx_completion: ['tx_completion_us'],
  interrupt_moderation: ['interrupt_interval_us', 'interrupt_throttle_us'],
  receiver_interrupt: ['receiver_interrupt_us', 'receiver_interrupt_throttle_us'],
  timer_tick: ['timer_hz'],
  clock_tolerance: ['clock_tolerance_ppm'],
  receive_buffer: ['rmem_max_bytes'],
  host_send_limit: ['host_send_limit_bps'],
  delay_granularity: ['delay_granularity_us'],
};

export interface ProfileControlProps {
  scenario: Scenario;
  catalogue: ProfileCatalogue;
  onChange: (profile: string) => void;
}

export const ProfileControl = memo(function ProfileControl({ scenario, catalogue, onChange }: ProfileControlProps) {
  const current = catalogue.profiles.find((p) => p.id === scenario.profile);
  const overrides = scenario.mechanisms ?? {};
  return (
    <div className="profile-control" data-control-id="profile">
      <label>
        Testbed profile{' '}
        <select value={scenario.profile} onChange={(e) => onChange(e.currentTarget.value)} data-testid="profile-select">
          {catalogue.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {current && <p className="profile-description">{current.description}</p>}
      <details>
        <summary>What this profile switches on</summary>
        <dl className="profile-switches" data-testid="profile-switches">
          {catalogue.switches.map((sw) => {
            const source = sw.sources.find(([id]) => id === scenario.profile)?.[1] ?? '';
            const overridden = OVERRIDE_KEYS[sw.id].some((k) => k in overrides);
            return (
              <div key={sw.id} data-switch={sw.id}>
                <dt>
                  {sw.name}
                  {overridden && <span className="overridden"> (overridden in this scenario)</span>}
                </dt>
                <dd>
                  <span className="switch-explanation">{sw.explanation}</span> <span className="switch-source">{source}</span>
                </dd>
              </div>
            );
          })}
        </dl>
      </details>
    </div>
  );
});
