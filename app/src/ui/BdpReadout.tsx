// The live bandwidth-delay product read-out beside the window and buffer
// controls: is the window below the BDP, within BDP + queue, or beyond it?

import type { Scenario } from '../engine/types';
import { analyseWindow } from '../lab/bdp';
import { formatBytes, formatRate } from '../lab/units';
import { Tip } from './Tip';

const pk = (v: number) => `${Math.round(v).toLocaleString('en-US')} pkts`;

export function BdpReadout({ scenario }: { scenario: Scenario }) {
  const a = analyseWindow(scenario);
  const queueName = a.queueAt === 'ifq' ? 'txqueuelen' : 'bottleneck buffer';
  const queuePkts = a.queueAt === 'ifq' ? a.txqueuelenPkts : a.bufferPkts;
  const flows = scenario.hosts.reduce((n, h) => n + h.flows.length, 0);
  const verdictText: Record<typeof a.verdict, string> = {
    window_limited: `Window-limited: the window is below the BDP, so at most ${formatRate(a.windowCapBps, 3)} (window ÷ RTT).`,
    fits: `The window fits in BDP + ${queueName}: no congestion from the window alone.`,
    overflows_ifq: `Window > BDP + txqueuelen: the interface queue will overflow, so expect local-congestion back-offs (CWR).`,
    overflows_buffer: `Window > BDP + bottleneck buffer: expect network losses at the bottleneck.`,
  };
  // A bar: BDP | queue | beyond, with the window marked.
  const max = Math.max(a.windowPkts, a.capacityPkts) * 1.08 || 1;
  const pct = (v: number) => `${Math.min(100, (v / max) * 100)}%`;
  return (
    <div className={`bdp verdict-${a.verdict}`} data-testid="bdp-readout" data-verdict={a.verdict} data-bdp-pkts={a.bdpPkts.toFixed(3)} data-window-pkts={a.windowPkts.toFixed(3)}>
      <div className="bdp-line">
        <strong>
          BDP <Tip id="bdp" />
        </strong>{' '}
        {formatRate(a.rateBps, 3)} × {a.rttMs} ms = <span data-testid="bdp-value">{formatBytes(a.bdpBytes, 3)}</span> ({pk(a.bdpPkts)} of {a.mss} B)
      </div>
      <div className="bdp-bar" aria-hidden="true">
        <span className="seg bdp-seg" style={{ width: pct(a.bdpPkts) }} />
        <span className="seg queue-seg" style={{ left: pct(a.bdpPkts), width: `calc(${pct(a.capacityPkts)} - ${pct(a.bdpPkts)})` }} />
        <span className="window-mark" style={{ left: pct(a.windowPkts) }} />
      </div>
      <div className="bdp-line small">
        {flows > 1 ? `Windows (${flows} flows)` : 'Window'} {formatBytes(a.windowBytes, 3)} = {pk(a.windowPkts)} · BDP + {queueName} = {pk(a.bdpPkts)} + {pk(queuePkts)} ={' '}
        {pk(a.capacityPkts)}
      </div>
      <div className="bdp-verdict" role="status">
        {verdictText[a.verdict]}
        {a.verdict === 'overflows_ifq' && <Tip id="cwr" />}
      </div>
    </div>
  );
}
