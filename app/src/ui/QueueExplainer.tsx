// The explainer for the bottleneck's queue discipline, from the engine's AQM
// catalogue: what it does, what to look for in the charts, its defaults and
// sources. Shown beside the algorithm's explainer.

import { memo } from 'react';
import type { AqmInfo, Aqm } from '../engine/types';
import { aqmInfo, aqmParamValue } from '../lab/aqm';

export const QueueExplainer = memo(function QueueExplainer({ aqm, aqms }: { aqm: Aqm; aqms: readonly AqmInfo[] }) {
  const info = aqmInfo(aqms, aqm.kind);
  if (!info) return null;
  return (
    <section className="explainer queue-explainer" aria-labelledby="queue-explainer-h" data-testid="queue-explainer" data-aqm={info.kind}>
      <h3 id="queue-explainer-h">The bottleneck queue: {info.name}</h3>
      <p>{info.explanation}</p>
      {info.kind !== 'drop_tail' && (
        <p className="muted">Look at the fifth chart: the queueing delay at the bottleneck and, with the latency probe on, the ping's round trip.</p>
      )}
      {info.params.length > 0 && (
        <dl className="params">
          {info.params.map((p) => (
            <div key={p.id}>
              <dt>{p.name}</dt>
              <dd>
                {p.unit === 'on/off' ? (aqmParamValue(aqm, p) ? 'on' : 'off') : `${aqmParamValue(aqm, p)} ${p.unit}`}
                {aqmParamValue(aqm, p) === p.default ? ' (default)' : ''} — {p.description}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p className="sources">Sources: {info.citations.map((c) => c.reference).join('; ')}.</p>
    </section>
  );
});
