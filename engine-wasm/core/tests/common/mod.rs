//! Measurements shared by the integration tests: what a run's recorded
//! columns say after a warm-up.

use sawtooth_core::record::Recorder;

/// The samples of `column` taken after `after_s` seconds.
pub fn samples_after(rec: &Recorder, column: &str, after_s: f64) -> Vec<f64> {
    let t = rec.column("t_s").expect("a time column");
    let x = rec
        .column(column)
        .unwrap_or_else(|| panic!("no column {column}"));
    t.iter()
        .zip(x)
        .filter(|(t, _)| **t > after_s)
        .map(|(_, x)| *x)
        .collect()
}

/// The mean of `column` over the samples taken after `after_s` seconds.
pub fn mean_after(rec: &Recorder, column: &str, after_s: f64) -> f64 {
    let late = samples_after(rec, column, after_s);
    late.iter().sum::<f64>() / late.len() as f64
}
