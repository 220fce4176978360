// What the lab page lists per flow when a scenario has many (issue 28). A
// scenario may have 64 hosts × 64 flows (the engine's limits), and every
// per-flow element of the page (a flow card, a legend entry, a row of the
// summary table, a column of a chart's data table) costs the page memory
// whether or not anyone can read 4 096 of them: listing every flow of the
// 4 096-flow run held about a million DOM elements, 1.3 GB of the renderer
// (BENCHMARKS.md, issue 28). Such lists show the first flows and say how
// many more there are; every number stays in the exports (series and
// summary CSV), as the engine computed it.

/** Flow cards in the scenario builder; the selected flow's card is shown too when it is beyond them. */
export const FLOW_CARDS_MAX = 64;
/** Flows named in the legend above the charts. */
export const LEGEND_FLOWS_MAX = 16;
/** Per-flow rows of the summary table. */
export const SUMMARY_FLOW_ROWS_MAX = 64;
/** Series (columns) of a chart's data table and of its text summary. */
export const TABLE_SERIES_MAX = 32;

export interface FirstOf<T> {
  shown: T[];
  /** How many were left out. */
  more: number;
}

/** The first `max` items and how many more there are. */
export function firstOf<T>(items: readonly T[], max: number): FirstOf<T> {
  const n = Math.max(0, Math.floor(max));
  return { shown: items.slice(0, n), more: Math.max(0, items.length - n) };
}

/**
 * The flow cards the builder shows: the first FLOW_CARDS_MAX flows, and the
 * selected flow (index into `flows`) after them when it is not among them,
 * so any flow can still be edited (the builder offers a flow number to
 * select). `more` counts the flows without a card.
 */
export function shownFlowCards<T>(flows: readonly T[], selected: number): FirstOf<T> {
  const first = firstOf(flows, FLOW_CARDS_MAX);
  if (first.more > 0 && selected >= FLOW_CARDS_MAX && selected < flows.length) {
    return { shown: [...first.shown, flows[selected]], more: first.more - 1 };
  }
  return first;
}
