// The data attributes every lab chart carries on its <figure data-testid="chart-…">,
// a public test surface (values are JSON):
//
//   data-series-ids        ["f0.cwnd_pkts","f0.ssthresh_pkts",…]  the current run's series, in drawing order
//   data-ghost-series-ids  ["f0.cwnd_pkts",…]  the previous run's series drawn faintly ([] when none)
//   data-point-counts      {"f0.cwnd_pkts":2001,…}  samples shown per series: inside the x view and
//                          up to the playback cursor (constant lines such as capacity count 2)
//   data-x-domain          [t0,t1]  the x view in seconds (linked across charts)
//   data-y-domain          [y0,y1]  in the axis's display unit (packets, MB, Mb/s)
//   data-marker-counts     {"network_loss":3,"local_congestion":12,"fast_retransmit":3,"timeout":0,"ecn_mark":0}
//                          engine events shown as markers (inside the x view, up to the cursor)
//   data-run-id            the engine run the chart shows
//   data-render            "svg" (lines are <path class="line" data-series=…>) or "canvas"
//   data-cursor-t          the hover cursor's sample time, when there is one

import type { ChartModel } from './chartModel';

const round = (v: number) => Number(v.toPrecision(10));

export function chartDataAttributes(m: ChartModel, runId: number): Record<string, string> {
  return {
    'data-series-ids': JSON.stringify(m.seriesIds),
    'data-ghost-series-ids': JSON.stringify(m.ghostSeriesIds),
    'data-point-counts': JSON.stringify(m.pointCounts),
    'data-x-domain': JSON.stringify(m.xDomain.map(round)),
    'data-y-domain': JSON.stringify(m.yDomain.map(round)),
    'data-marker-counts': JSON.stringify(m.markerCounts),
    'data-run-id': String(runId),
  };
}
