// "What this simulation shows": the lab's sentences about its own runs, each
// filled with numbers from the results and checked against them by the
// engine (sim_claims). The paper's findings are elsewhere on the page.

import type { ClaimOutcome, ClaimPart } from '../engine/generated/labs';
import { claimsView, waitingText } from './simClaims';

function Part({ part }: { part: ClaimPart }) {
  if (part.reference === null) return <>{part.text}</>;
  return (
    <span className="claim-value" data-ref={part.reference} data-value={part.value ?? ''}>
      {part.text}
    </span>
  );
}

function Claim({ claim }: { claim: ClaimOutcome }) {
  const sentence = claim.parts.map((p, i) => <Part key={i} part={p} />);
  if (claim.holds) {
    return (
      <li data-claim-id={claim.id} data-holds="true" title={claim.detail}>
        {sentence}
      </li>
    );
  }
  return (
    <li data-claim-id={claim.id} data-holds="false" className="claim-not-shown">
      <strong>These runs do not show this:</strong> {sentence} <span className="muted small">(measured: {claim.detail})</span>
    </li>
  );
}

export function SimClaims({ claims }: { claims: readonly ClaimOutcome[] | null }) {
  const view = claimsView(claims);
  if (!claims || claims.length === 0) return null;
  const waiting = waitingText(view);
  return (
    <section className="sim-claims" data-testid="sim-claims" data-shown={view.shown.length} data-waiting={view.waiting} aria-labelledby="sim-claims-title">
      <h4 id="sim-claims-title">What this simulation shows</h4>
      {view.shown.length > 0 && (
        <ul>
          {view.shown.map((c) => (
            <Claim key={c.id} claim={c} />
          ))}
        </ul>
      )}
      {waiting && <p className="muted small">{waiting}</p>}
    </section>
  );
}
