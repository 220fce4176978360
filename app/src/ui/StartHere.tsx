// The first-time path on the lab page: what the page shows, one thing to
// try, and where the guided labs are. Dismissed once, it stays closed in
// this browser (localStorage); a link opens it again.

import { useState, type ReactNode } from 'react';
import './startHere.css';

const KEY = 'sawtooth.startHere.closed';

function initiallyClosed(): boolean {
  try {
    return window.localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

function remember(closed: boolean): void {
  try {
    if (closed) window.localStorage.setItem(KEY, '1');
    else window.localStorage.removeItem(KEY);
  } catch {
    // not kept
  }
}

export interface StartHereProps {
  /** The prediction step before the one thing to try (pages/StartPrediction.tsx). */
  predict?: ReactNode;
  /** Open whatever was remembered (a link that carries a prediction for this path). */
  open?: boolean;
}

export function StartHere({ predict, open = false }: StartHereProps) {
  const [closed, setClosed] = useState(() => !open && initiallyClosed());
  if (closed)
    return (
      <p className="start-here-reopen" data-embed-hide="">
        <button type="button" className="link" onClick={() => (remember(false), setClosed(false))} data-testid="start-here-open">
          New here? Start here
        </button>
      </p>
    );
  return (
    <section className="start-here" aria-labelledby="start-here-title" data-testid="start-here" data-embed-hide="">
      <h2 id="start-here-title">Start here</h2>
      <ol>
        <li>
          <strong>What you are looking at.</strong> One Standard TCP sender sends to a receiver through a switch: a 100 Mb/s link with a 20 ms round
          trip, and a switch buffer of 40 packets, a quarter of what the path holds in flight. The settings are under <em>Scenario</em>; the path
          view shows the packets on their way. The charts show what the simulator computed: the congestion window (the sawtooth: it grows until the
          switch’s buffer overflows, is halved, and grows again), the data in flight, the throughput (below the link’s rate after each cut: the cost
          of the sawtooth) and the queues.
        </li>
        <li>
          <strong>Predict, then try one thing.</strong> Change the flow’s algorithm from Standard TCP to HighSpeed or Scalable TCP and watch how much faster the
          window grows back after each cut. Every change re-runs the simulation; the “?” buttons explain each term.
          {predict}
        </li>
        <li>
          <strong>Then the guided labs.</strong> <a href="?view=labs">Eighteen guided labs</a> re-run the experiments of five published studies, and five more
          take on bufferbloat, modern queue management, BBR, data-centre TCP, fairness between round-trip times and L4S (TCP Prague through DualPI2), with the published measurements beside the simulation’s.
        </li>
      </ol>
      <button type="button" onClick={() => (remember(true), setClosed(true))} data-testid="start-here-close">
        Got it, hide this
      </button>
    </section>
  );
}
