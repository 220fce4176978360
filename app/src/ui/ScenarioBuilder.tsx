// The scenario builder: topology, path, senders, window (with the BDP
// read-out), TCP settings, flows and run settings. Every control edits the
// one scenario in the LabStore.

import { memo } from 'react';
import type { TraceRead } from '../engine/protocol';
import type { AlgorithmInfo, AqmInfo, ProfileCatalogue, Scenario } from '../engine/types';
import { CONTROLS, type ControlSpec, type LinkableControlId } from '../lab/controls';
import { bdpPackets, capacityBps } from '../model/path';
import type { LabState, LabStore } from '../lab/labStore';
import {
  addFlow,
  addHost,
  common,
  flatFlows,
  flowPath,
  MAX_FLOWS_PER_HOST,
  MAX_HOSTS,
  removeFlow,
  removeHost,
  setStreamCount,
  updateAllFlows,
  updateAllHosts,
  updateFlow,
  updateHost,
} from '../lab/topology';
import { FLOW_CARDS_MAX, shownFlowCards } from '../lab/manyFlows';
import { BdpReadout } from './BdpReadout';
import { MtuControl } from './MtuControl';
import { FlowCard } from './FlowCard';
import { ProfileControl } from './ProfileControl';
import { QuantityControl } from './QuantityControl';
import { QueueControl } from './QueueControl';
import { Tip } from './Tip';
import { TraceControl } from './TraceControl';
import { TopologyPicker } from './TopologyPicker';

export interface ScenarioBuilderProps {
  lab: LabStore;
  state: LabState;
  catalogue: AlgorithmInfo[];
  /** The testbed profiles (engine catalogue). */
  profiles?: ProfileCatalogue;
  /** The queue disciplines (engine AQM catalogue). */
  aqms?: AqmInfo[];
  /** Control ids to show (embed views); null: all. */
  visibleControls?: string[] | null;
  /** The engine's reading of a trace file; without it the trace control is not shown. */
  readTrace?: (text: string, name: string) => Promise<TraceRead>;
}

export const ScenarioBuilder = memo(function ScenarioBuilder({ lab, state, catalogue, profiles, aqms, visibleControls, readTrace }: ScenarioBuilderProps) {
  const s = state.scenario;
  const view = state.view;
  const topo = view.topology;
  const show = (c: ControlSpec | LinkableControlId) => !visibleControls || visibleControls.includes(typeof c === 'string' ? c : c.id);
  const up = (f: (x: Scenario) => Scenario) => lab.update(f);
  const flows = flatFlows(s);
  // A scenario of thousands of flows (uploaded, or from a link) gets cards for the first few (lab/manyFlows.ts).
  const cards = shownFlowCards(flows, view.selectedFlow);
  const custom = topo === 'custom';
  const windows = flows.map((f) => f.flow.window_bytes);
  const nics = s.hosts.map((h) => h.nic_bps);
  const txqs = s.hosts.map((h) => h.txqueuelen_pkts);
  const bottleneckRate = capacityBps(s);
  const bdpPkts = bdpPackets(bottleneckRate, s.rtt_ms, s.mtu_bytes);
  const bufferFraction = view.bufferBdpFraction;

  const bufferModeToggle = (
    <label className="mode-toggle">
      <input
        type="checkbox"
        checked={bufferFraction !== null}
        onChange={(e) =>
          lab.setView({ bufferBdpFraction: e.currentTarget.checked ? Math.max(0.01, Math.min(20, Number((s.bottleneck.buffer_pkts / Math.max(bdpPkts, 1e-9)).toPrecision(2)))) : null })
        }
      />
      × BDP
    </label>
  );

  return (
    <div className="builder" data-testid="scenario-builder">
      {show('topology') && (
        <TopologyPicker
          value={topo}
          onChange={(t) => lab.setTopology(t, t === 'parallel' ? Math.max(2, Math.min(16, flows.length)) : undefined)}
        />
      )}

      {topo === 'parallel' && show(CONTROLS.streams) && (
        <QuantityControl spec={CONTROLS.streams} value={s.hosts[0].flows.length} onChange={(n) => up((x) => setStreamCount(x, n))} />
      )}

      <fieldset>
        <legend>Path</legend>
        {show(CONTROLS.rtt) && <QuantityControl spec={CONTROLS.rtt} value={s.rtt_ms} glossary="rtt" onChange={(v) => up((x) => ({ ...x, rtt_ms: v }))} />}
        {show(CONTROLS.bottleneckRate) && (
          <QuantityControl
            spec={CONTROLS.bottleneckRate}
            value={s.bottleneck.rate_bps}
            // A trace-driven link's rate is its trace's (the engine ignores rate_bps).
            disabled={!!s.bottleneck.trace}
            unit={s.bottleneck.trace ? 'set by the trace below' : undefined}
            onChange={(v) => up((x) => ({ ...x, bottleneck: { ...x.bottleneck, rate_bps: v } }))}
          />
        )}
        {show('trace') && readTrace && <TraceControl scenario={s} onChange={up} readTrace={readTrace} />}
        {show(CONTROLS.bufferPkts) &&
          (bufferFraction === null ? (
            <QuantityControl
              spec={CONTROLS.bufferPkts}
              value={s.bottleneck.buffer_pkts}
              extra={bufferModeToggle}
              onChange={(v) => up((x) => ({ ...x, bottleneck: { ...x.bottleneck, buffer_pkts: v } }))}
            />
          ) : (
            <QuantityControl
              spec={CONTROLS.bufferBdp}
              value={bufferFraction}
              extra={bufferModeToggle}
              testId="buffer"
              unit={`× BDP = ${s.bottleneck.buffer_pkts} pkts`}
              onChange={(v) => lab.setView({ bufferBdpFraction: v })}
            />
          ))}
        {show('mtu') && <MtuControl mtu={s.mtu_bytes} withTrace={!!s.bottleneck.trace} onChange={(m) => up((x) => ({ ...x, mtu_bytes: m }))} />}
        {show(CONTROLS.lossRate) && <QuantityControl spec={CONTROLS.lossRate} value={s.loss_rate} onChange={(v) => up((x) => ({ ...x, loss_rate: v }))} />}
      </fieldset>

      {(show('aqm') || show('probe')) && <QueueControl scenario={s} aqms={aqms ?? []} show={show} onChange={up} />}

      {!custom && (
        <fieldset>
          <legend>Sender {s.hosts.length > 1 ? `hosts (all ${s.hosts.length})` : 'host'}</legend>
          {show(CONTROLS.nicRate) && (
            <QuantityControl
              spec={CONTROLS.nicRate}
              value={nics[0]}
              mixed={common(nics) === null}
              onChange={(v) => up((x) => updateAllHosts(x, (h) => ({ ...h, nic_bps: v })))}
            />
          )}
          {show(CONTROLS.txqueuelen) && (
            <QuantityControl
              spec={CONTROLS.txqueuelen}
              value={txqs[0]}
              mixed={common(txqs) === null}
              glossary="txqueuelen"
              onChange={(v) => up((x) => updateAllHosts(x, (h) => ({ ...h, txqueuelen_pkts: v })))}
            />
          )}
        </fieldset>
      )}

      <fieldset>
        <legend>
          Window <Tip id="window" />
        </legend>
        {show(CONTROLS.window) && (
          <QuantityControl
            spec={CONTROLS.window}
            label={flows.length > 1 ? 'Window (all flows)' : 'Window'}
            testId="window"
            value={windows[0]}
            mixed={common(windows) === null}
            onChange={(v) => up((x) => updateAllFlows(x, (f) => ({ ...f, window_bytes: v })))}
          />
        )}
        <BdpReadout scenario={s} />
      </fieldset>

      {custom && (
        <fieldset className="hosts">
          <legend>Hosts and flows</legend>
          {s.hosts.map((h, hi) => (
            <div key={hi} className="host-card" data-testid={`host-${hi}`}>
              <div className="host-head">
                <h4>Host {hi}</h4>
                <button type="button" className="small" disabled={h.flows.length >= MAX_FLOWS_PER_HOST} onClick={() => up((x) => addFlow(x, hi))}>
                  Add flow
                </button>
                <button type="button" className="small" disabled={s.hosts.length <= 1} onClick={() => up((x) => removeHost(x, hi))} aria-label={`Remove host ${hi}`}>
                  Remove host
                </button>
              </div>
              <QuantityControl
                spec={CONTROLS.nicRate}
                value={h.nic_bps}
                field={`hosts[${hi}].nic_bps`}
                label={`Host ${hi} NIC rate`}
                testId={`host${hi}-nic`}
                onChange={(v) => up((x) => updateHost(x, hi, (y) => ({ ...y, nic_bps: v })))}
              />
              <QuantityControl
                spec={CONTROLS.txqueuelen}
                value={h.txqueuelen_pkts}
                field={`hosts[${hi}].txqueuelen_pkts`}
                label={`Host ${hi} txqueuelen`}
                testId={`host${hi}-txqueuelen`}
                onChange={(v) => up((x) => updateHost(x, hi, (y) => ({ ...y, txqueuelen_pkts: v })))}
              />
            </div>
          ))}
          <button type="button" className="small" disabled={s.hosts.length >= MAX_HOSTS} onClick={() => up(addHost)}>
            Add host
          </button>
        </fieldset>
      )}

      {/* share: the per-flow cards are the control "flows" (?controls=flows in embed mode). */}
      {show('flows') && (
        <fieldset className="flows" data-control-id="flows">
          <legend>{flows.length > 1 ? `Flows (${flows.length})` : 'Flow'}</legend>
          {cards.more > 0 && (
            <p className="more-flows muted">
              Cards for the first {FLOW_CARDS_MAX} of {flows.length} flows
              {view.selectedFlow >= FLOW_CARDS_MAX ? ' and the selected one' : ''}.{' '}
              <label>
                Edit flow{' '}
                <input
                  type="number"
                  min={0}
                  max={flows.length - 1}
                  step={1}
                  value={view.selectedFlow}
                  aria-label={`Flow to edit (0 to ${flows.length - 1})`}
                  onChange={(e) => {
                    const v = Math.round(Number(e.currentTarget.value));
                    if (Number.isFinite(v) && v >= 0 && v < flows.length) lab.setView({ selectedFlow: v });
                  }}
                />
              </label>
            </p>
          )}
          {cards.shown.map((f) => (
            <FlowCard
              key={f.global}
              index={f.global}
              host={f.host}
              path={flowPath(s, f.global)}
              flow={f.flow}
              catalogue={catalogue}
              durationS={s.duration_ms / 1000}
              advanced={custom}
              selected={view.selectedFlow === f.global}
              canCopy={flows.length > 1}
              canRemove={custom && flows.length > 1}
              onChange={(nf) => up((x) => updateFlow(x, f.global, () => nf))}
              onSelect={() => view.selectedFlow !== f.global && lab.setView({ selectedFlow: f.global })}
              onCopyToAll={() =>
                up((x) => updateAllFlows(x, (g) => ({ ...g, algorithm: f.flow.algorithm, params: { ...f.flow.params }, ...(custom ? {} : { window_bytes: g.window_bytes }) })))
              }
              onRemove={() => up((x) => removeFlow(x, f.host, f.index))}
            />
          ))}
        </fieldset>
      )}

      <fieldset>
        <legend>TCP</legend>
        {show(CONTROLS.initialSsthresh) && (
          <QuantityControl
            spec={CONTROLS.initialSsthresh}
            value={s.tcp.initial_ssthresh_pkts ?? CONTROLS.initialSsthresh.defaultValue}
            disabled={s.tcp.initial_ssthresh_pkts === null}
            glossary="ssthresh"
            onChange={(v) => up((x) => ({ ...x, tcp: { ...x.tcp, initial_ssthresh_pkts: v } }))}
            extra={
              <label className="mode-toggle">
                <input
                  type="checkbox"
                  checked={s.tcp.initial_ssthresh_pkts === null}
                  onChange={(e) =>
                    up((x) => ({ ...x, tcp: { ...x.tcp, initial_ssthresh_pkts: e.currentTarget.checked ? null : CONTROLS.initialSsthresh.defaultValue } }))
                  }
                  data-testid="ssthresh-infinite"
                />
                ∞
              </label>
            }
          />
        )}
        {show(CONTROLS.initialCwnd) && (
          <QuantityControl spec={CONTROLS.initialCwnd} value={s.tcp.initial_cwnd_pkts} onChange={(v) => up((x) => ({ ...x, tcp: { ...x.tcp, initial_cwnd_pkts: v } }))} />
        )}
        {show('tcp-options') && (
          <div className="check-row" data-control-id="tcp-options">
            <label className="check">
              <input type="checkbox" checked={s.tcp.delayed_ack} onChange={(e) => up((x) => ({ ...x, tcp: { ...x.tcp, delayed_ack: e.currentTarget.checked } }))} />
              Delayed ACKs
            </label>
            <label className="check">
              <input type="checkbox" checked={s.tcp.sack} onChange={(e) => up((x) => ({ ...x, tcp: { ...x.tcp, sack: e.currentTarget.checked } }))} />
              SACK
            </label>
          </div>
        )}
      </fieldset>

      {profiles && profiles.profiles.length > 0 && show('profile') && (
        <fieldset>
          <legend>Testbed</legend>
          <ProfileControl scenario={s} catalogue={profiles} onChange={(id) => up((x) => ({ ...x, profile: id, mechanisms: {} }))} />
        </fieldset>
      )}

      <fieldset>
        <legend>Run</legend>
        {show(CONTROLS.duration) && (
          <QuantityControl spec={CONTROLS.duration} value={s.duration_ms / 1000} onChange={(v) => up((x) => ({ ...x, duration_ms: Math.round(v * 1000) }))} />
        )}
        {show(CONTROLS.seed) && <QuantityControl spec={CONTROLS.seed} value={s.seed} onChange={(v) => up((x) => ({ ...x, seed: v }))} />}
      </fieldset>
      <button type="button" className="reset-all" onClick={() => lab.reset()} data-testid="reset-scenario">
        Reset everything to the default scenario
      </button>
    </div>
  );
});
