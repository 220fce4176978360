// The guided-lab part of the wasm-bindgen module (engine-wasm/bindings,
// "Guided labs"): function signatures only. Data shapes are the ts-rs types
// in ../engine/generated/labs.ts; labWorker.ts checks at compile time that
// the built package fits this interface.

export interface LabEngine {
  /** The eleven labs (LabsFile) as JSON. */
  labs_json(): string;
  /** The papers' published values (PaperFile) as JSON. */
  paper_json(): string;
  /** Every run of a lab's sweep (SweepPoint[]) as JSON; throws an Error with a message. */
  lab_points_json(lab_id: string, quick: boolean): string;
  /** Run point `index` of the sweep to the end (PointResult) as JSON. */
  run_lab_point_json(lab_id: string, quick: boolean, index: number): string;
  /** Paper values beside the simulated ones (Comparison[]) as JSON. */
  compare_lab_json(lab_id: string, results_json: string): string;
  /** The paper's ranking of the series ([series, combined, standard][] or null) as JSON. */
  rank_lab_json(lab_id: string, results_json: string): string;
  /** Deliberately trap (tests). */
  debug_trap?(): void;
}
