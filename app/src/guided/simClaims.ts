// What the page says a lab's runs show, from the engine's evaluation of the
// lab's sentences (labs.json guide.simulator): only sentences whose runs
// have all finished are shown, and one the runs do not bear out is shown as
// such rather than asserted.

import type { ClaimOutcome } from '../engine/generated/labs';

export interface ClaimsView {
  /** Sentences whose runs have finished, in the lab's order. */
  shown: ClaimOutcome[];
  /** Sentences still waiting for runs. */
  waiting: number;
}

export function claimsView(claims: readonly ClaimOutcome[] | null): ClaimsView {
  const all = claims ?? [];
  const shown = all.filter((c) => c.holds !== null);
  return { shown, waiting: all.length - shown.length };
}

/** What the muted line under the list says, if anything. */
export function waitingText(v: ClaimsView): string | null {
  if (v.waiting === 0) return null;
  if (v.shown.length === 0) return 'Statements about these runs appear here as the runs they are about finish.';
  return `${v.waiting} more ${v.waiting === 1 ? 'statement appears' : 'statements appear'} when the runs ${v.waiting === 1 ? 'it is' : 'they are'} about finish.`;
}
