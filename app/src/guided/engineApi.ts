// The guided-lab wasm-bindgen module (engine-wasm/lab-bindings, built into
// ./pkg/sawtooth_lab_bindings.js): function signatures only. Data shapes
// are the ts-rs types in ../engine/generated/labs.ts; labWorker.ts checks at
// compile time that the built package fits this interface.

export interface LabEngine {
  /** The guided labs (LabsFile) as JSON. */
  labs_json(): string;
  /** The papers' published values (PaperFile) as JSON. */
  paper_json(): string;
  /** Every run of a lab's sweep (SweepPoint[]) as JSON; throws an Error with a message. */
  lab_points_json(lab_id: string, quick: boolean): string;
  /** Run point `index` of the sweep to the end (PointResult) as JSON; the instance keeps the last sweep's expansion for the next point. */
  run_lab_point_json(lab_id: string, quick: boolean, index: number): string;
  /** Paper values beside the simulated ones (Comparison[]) as JSON. */
  compare_lab_json(lab_id: string, results_json: string): string;
  /** What the lab's text says its runs show, filled from and checked against the results (ClaimOutcome[]) as JSON. */
  lab_claims_json(lab_id: string, quick: boolean, results_json: string): string;
  lab_findings_json(lab_id: string, quick: boolean, results_json: string): string;
  /** The seed aggregates (SweepAggregates) of the metrics named in `metrics_json`, from the results so far, as JSON. */
  lab_aggregates_json(lab_id: string, quick: boolean, metrics_json: string, results_json: string): string;
  /** The paper's ranking of the series ([series, combined, standard][] or null) as JSON. */
  rank_lab_json(lab_id: string, results_json: string): string;
  /** The lab's ablation variants (AblationVariant[]) as JSON. */
  ablation_variants_json(lab_id: string): string;
  /** Run point `index` of the sweep under ablation variant `variant` (PointResult) as JSON. */
  run_ablation_point_json(lab_id: string, quick: boolean, variant: number, index: number): string;
  /** One ablation variant's row (AblationRow) from its results, as JSON. */
  ablation_row_json(lab_id: string, quick: boolean, variant: number, results_json: string): string;
  /**
   * A sweep file from `sawtooth sweep` or `sawtooth merge`, opened for this lab and scale and checked by the engine
   * (SweepFileOutcome as JSON: its runs, or why it is refused, with the line). A refusal is an answer, not a throw.
   */
  open_sweep_file_json(text: string, lab_id: string, quick: boolean): string;
  /** The engine build this module was made from, as a sweep file's closing line states it. */
  engine_id(): string;
  /** Deliberately trap (tests). */
  debug_trap?(): void;
}
