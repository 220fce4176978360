//! Sweeps that fan out beyond one machine (issue 12): `sawtooth sweep LAB
//! --shard K/N` runs the K-th of N deterministic slices of a lab's sweep,
//! and `sawtooth merge` joins the slices into exactly the unsharded output.
//!
//! Slicing: the points are balanced by expected cost, not by count. Each
//! point's cost is the resource model's expected engine events
//! (`resources::estimate`, what the engine's speed is measured in), and the
//! points are dealt longest first, each to the shard with the least cost so
//! far (the lowest-numbered on a tie; ties between points go to the lower
//! index). This is Graham's LPT rule: its largest shard is within 4/3 of the
//! best possible, whereas dealing by index ignores that a lab's series and
//! swept values differ many-fold in cost. The rule uses integers only, so
//! every machine computes the same slices.
//!
//! A shard file is the sweep's CSV for its own points (the same columns and
//! row format), framed by comment lines that let the merge check it:
//!
//! ```text
//! # sawtooth-shard 2 lab=LAB scale=quick series=all shard=K/N points=P engine=V+H sweep=H digest=D
//! lab,series,x,seed,...                 (the CSV of this shard's points)
//! # point I {...}                       (each point's full-precision result)
//! ```
//!
//! `engine` is the crate version and a hash of the engine's sources and lab
//! data (build.rs); `sweep` hashes every expanded point (its scenario
//! included); `digest` hashes the file itself (see `digest`), so an edit
//! made consistently to a CSV row and its `# point` record is still
//! refused. The `# point` lines hold every measured value exactly (floats
//! as Rust's shortest round-trip text), so the merge rebuilds each run's
//! result bit for bit and writes the CSV and the paper comparison with the
//! same code as an unsharded sweep.
//!
//! The merge reads CRLF line endings, trailing blank lines and a leading
//! byte-order mark as the file `sweep` wrote (what an editor or a transfer
//! may change), and bounds its work by the files given, never by the N a
//! header states.

//!
//! Here: a shard and its points (the slicing above); the file format in
//! `shard/format.rs`, the `# point` records in the engine's
//! `labs/record.rs` (shared with the sweep file the page opens), the
//! merge's checks in `shard/merge.rs`.

mod format;
mod merge;

pub use format::write_shard;
pub use merge::{gather, Gathered};

use sawtooth_core::labs::SweepPoint;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// One slice of N, K counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Parse `K/N` (1 ≤ K ≤ N). Clap puts "invalid value 'K/N' for '--shard
/// <K/N>'" in front of the message.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let form = "the form is K/N, whole numbers with 1 ≤ K ≤ N (e.g. 2/8)";
    let Some((k, n)) = s.split_once('/') else {
        return Err(format!("no \"/\"; {form}"));
    };
    match (k.parse::<u32>(), n.parse::<u32>()) {
        (Ok(_), Ok(0)) => Err(format!("N = 0 must be at least 1; {form}")),
        (Ok(k), Ok(n)) if !(1..=n).contains(&k) => {
            Err(format!("K = {k} must be between 1 and N = {n}; {form}"))
        }
        (Ok(k), Ok(n)) => Ok(Shard { k, n }),
        _ if [k, n]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            Err(format!("K and N must be at most {}; {form}", u32::MAX))
        }
        _ => Err(format!("K and N must be whole numbers; {form}")),
    }
}

/// The shard (0-based) of each point, by the LPT rule of the module doc:
/// points by cost, largest first (lower index first on a tie), each to the
/// least-loaded shard (lowest number on a tie). A cost of 0 counts as 1, so
/// when N ≥ the point count every point gets a shard of its own and the
/// shards numbered above the point count stay empty.
pub fn assign(costs: &[u64], shards: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
    // Shards past the point count never receive a point (see above).
    let open = (shards as usize).min(costs.len()) as u32;
    let mut load: BinaryHeap<Reverse<(u128, u32)>> = (0..open).map(|s| Reverse((0, s))).collect();
    let mut of = vec![0; costs.len()];
    for i in order {
        let Reverse((l, s)) = load.pop().expect("at least one open shard");
        of[i] = s;
        load.push(Reverse((l + costs[i].max(1) as u128, s)));
    }
    of
}

/// Indices of the points the shard runs, ascending.
pub fn indices_of(points: &[SweepPoint], shard: Shard) -> Vec<usize> {
    let costs: Vec<u64> = points
        .iter()
        .map(|p| crate::progress::work(&p.scenario))
        .collect();
    assign(&costs, shard.n)
        .into_iter()
        .enumerate()
        .filter(|&(_, s)| s == shard.k - 1)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_syntax_is_k_of_n_from_one() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { k: 2, n: 3 }));
        assert_eq!(parse_shard("1/1"), Ok(Shard { k: 1, n: 1 }));
        for bad in [
            "0/3", "4/3", "1/0", "3", "a/b", "", "-1/3", "1/3/4", "1.5/3",
        ] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains("the form is K/N"), "{bad}: {e}");
        }
        assert!(parse_shard("4/3")
            .unwrap_err()
            .contains("K = 4 must be between 1 and N = 3"));
        assert!(parse_shard("1/4294967296")
            .unwrap_err()
            .contains("K and N must be at most 4294967295"));
        assert_eq!(
            parse_shard("4294967295/4294967295"),
            Ok(Shard {
                k: u32::MAX,
                n: u32::MAX
            })
        );
    }

    #[test]
    fn every_point_in_exactly_one_shard_and_loads_balanced() {
        // Costs of a lab whose series differ tenfold, in sweep order.
        let costs: Vec<u64> = (0..30)
            .map(|i| if i < 10 { 1000 } else { 100 + i })
            .collect();
        for n in 1..=40u32 {
            let of = assign(&costs, n);
            assert_eq!(of.len(), costs.len());
            assert!(of.iter().all(|&s| s < n));
            let mut load = vec![0u64; n as usize];
            for (i, &s) in of.iter().enumerate() {
                load[s as usize] += costs[i];
            }
            // LPT: the largest shard exceeds the mean by less than the
            // largest single point.
            let total: u64 = costs.iter().sum();
            let max = *load.iter().max().unwrap();
            assert!(max * n as u64 <= total + 1000 * n as u64, "n {n}: {load:?}");
            if n as usize >= costs.len() {
                let used = load.iter().filter(|&&l| l > 0).count();
                assert_eq!(used, costs.len(), "one point each, the rest empty");
            }
        }
        // Every fifth point heavy: dealing by index would give all six to
        // shard 1 of 5 (6000 against 600); LPT gives one a shard, the sixth
        // beside lighter ones.
        let costs: Vec<u64> = (0..30)
            .map(|i| if i % 5 == 0 { 1000 } else { 100 })
            .collect();
        let of = assign(&costs, 5);
        let mut load = [0u64; 5];
        for (i, &s) in of.iter().enumerate() {
            load[s as usize] += costs[i];
        }
        assert_eq!(load, [2000, 1600, 1600, 1600, 1600]);
    }

    #[test]
    fn assignment_is_by_cost_then_index() {
        assert_eq!(assign(&[5, 9, 5, 1], 2), vec![1, 0, 1, 0]);
        assert_eq!(assign(&[3, 3, 3], 5), vec![0, 1, 2]);
        assert_eq!(assign(&[], 3), Vec::<u32>::new());
    }
}
