//! Each guided lab's qualitative finding, checked against the simulator.
//!
//! One test per lab: it runs a scaled-down version of the lab's
//! sweep (fewer x values and seeds, shorter runs, built with `Lab::point`)
//! and asserts the ordering or trend the paper reported. Where the model
//! does not reproduce a finding, the test says so in a comment, with the
//! model difference that explains it (docs/ENGINE.md "What it does not
//! model"), and asserts the part of the finding the simulator does
//! reproduce. Nothing here is tuned: the labs, the engine and the defaults
//! are as shipped.
//!
//! Run with `--nocapture` to see the simulated numbers next to the paper's.

use sawtooth_core::labs::{
    lab, rank_series, run_point, Lab, Measure, PointResult, Scale, SweepPoint, SweepValue,
};
use sawtooth_core::parallel;

const MB: f64 = 1048576.0;

/// One run of a lab: series, swept value, seed.
#[derive(Clone)]
struct Job {
    series: String,
    x: SweepValue,
    seed: u32,
}

fn job(series: &str, x: f64, seed: u32) -> Job {
    Job {
        series: series.to_string(),
        x: SweepValue::Number(x),
        seed,
    }
}

/// Every (series, x, seed) combination.
fn grid(series: &[&str], xs: &[f64], seeds: &[u32]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for s in series {
        for x in xs {
            for seed in seeds {
                jobs.push(job(s, *x, *seed));
            }
        }
    }
    jobs
}

/// Expand the jobs at the quick scale, let `adjust` shorten each scenario,
/// and run them on all cores. Results come back in job order.
fn run_jobs(l: &Lab, jobs: &[Job], adjust: impl Fn(&mut SweepPoint) + Sync) -> Vec<PointResult> {
    let points: Vec<SweepPoint> = jobs
        .iter()
        .map(|j| {
            let mut p = l
                .point(&j.series, &j.x, j.seed, Scale::Quick)
                .unwrap_or_else(|e| panic!("{}/{} x={}: {e}", l.id, j.series, j.x));
            adjust(&mut p);
            let end = p.scenario.duration_ms;
            for f in p.scenario.hosts.iter_mut().flat_map(|h| &mut h.flows) {
                f.start_ms = f.start_ms.min(end / 2.0);
            }
            p
        })
        .collect();
    parallel::map_in_order(&points, parallel::available_cores(), |p| {
        run_point(l, p, Scale::Quick).unwrap_or_else(|e| panic!("{}/{}: {e}", l.id, p.series))
    })
}

/// Shorten every run to `ms`.
fn duration(ms: f64) -> impl Fn(&mut SweepPoint) + Sync {
    move |p: &mut SweepPoint| p.scenario.duration_ms = ms
}

/// A copy of the lab measured over another window (the shipped lab is
/// unchanged; only this test's shorter runs need a window that fits).
fn measured_from(id: &str, from_s: f64) -> Lab {
    let mut l = lab(id).unwrap().clone();
    l.quick.measure = Some(Measure { from_s, to_s: None });
    l
}

fn at(r: &PointResult, series: &str, x: Option<f64>) -> bool {
    r.series == series && x.is_none_or(|x| r.x.as_number() == Some(x))
}

/// Mean of `f` over the runs of `series` (at `x`, if given).
fn mean(rs: &[PointResult], series: &str, x: Option<f64>, f: impl Fn(&PointResult) -> f64) -> f64 {
    let v: Vec<f64> = rs.iter().filter(|r| at(r, series, x)).map(f).collect();
    assert!(!v.is_empty(), "no runs of {series} at {x:?}");
    v.iter().sum::<f64>() / v.len() as f64
}

fn total(r: &PointResult) -> f64 {
    r.total_throughput_mbps
}

fn share(r: &PointResult) -> f64 {
    r.standard_share.expect("a series with a standard flow")
}

fn size(bytes: f64) -> String {
    if bytes < MB {
        format!("{:.0} KB", bytes / 1024.0)
    } else {
        format!("{:.0} MB", bytes / MB)
    }
}

/// Print one line of a lab's report. Tests run in parallel, so every line
/// names its lab.
macro_rules! say {
    ($l:expr, $($arg:tt)*) => {
        println!("lab {:>2} | {}", $l.number, format!($($arg)*))
    };
}

fn header(l: &Lab) {
    say!(l, "{} ({}), simulated vs paper:", l.title, l.id);
}

// ---------------------------------------------------------------------------
// Lab 1: back-to-back, no delay.

/// Long 2003 Fig. 7-8, Sandia's 10 Gb/s study Tables 1/3/5: with no delay the three
/// algorithms behave alike at every window, about 940 Mb/s at MTU 1500 and
/// 990 Mb/s at 9000, and a 5 MB window keeps only ~300 KB outstanding.
///
/// The outstanding data is far below the window here too, but several
/// hundred kB rather than 300 kB: it is what waits in the host (the
/// 100-packet interface queue and the e1000 ring's about 78 jumbo frames),
/// and Sandia's 10 Gb/s study measured it from a 10 Gb/s client through a switch, lab 8's
/// topology (the lab's model differences). Asserted: below half the window,
/// and no more than the host could hold.
#[test]
fn lab01_back_to_back_all_algorithms_alike_at_every_window() {
    let l = lab("back-to-back").unwrap();
    header(l);
    let windows = [0.25 * MB, 5.0 * MB, 16.0 * MB];
    let series = [
        "reno-1500",
        "highspeed-1500",
        "scalable-1500",
        "reno-9000",
        "highspeed-9000",
        "scalable-9000",
    ];
    let rs = run_jobs(l, &grid(&series, &windows, &[1]), duration(2000.0));
    for (mtu, paper, algs) in [(1500, 940.0, &series[..3]), (9000, 990.0, &series[3..])] {
        for w in windows {
            let v: Vec<f64> = algs.iter().map(|s| mean(&rs, s, Some(w), total)).collect();
            say!(l,
                "MTU {mtu}, window {:>5}: Standard {:.1}, HighSpeed {:.1}, Scalable {:.1} Mb/s (paper: all about {paper})",
                size(w), v[0], v[1], v[2]
            );
            let (lo, hi) = v
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
            assert!(
                hi - lo <= 0.01 * hi,
                "MTU {mtu} window {w}: algorithms differ: {v:?}"
            );
            assert!(lo >= 0.97 * paper, "MTU {mtu} window {w}: {lo} Mb/s");
        }
    }
    for s in ["reno-9000", "highspeed-9000"] {
        let kb = mean(&rs, s, Some(5.0 * MB), |r| r.mean_outstanding_kbytes);
        say!(
            l,
            "{s}, 5 MB window: {kb:.0} kB outstanding on average (paper: about 300 kB)"
        );
        // The paper's finding: what is outstanding is far below the window
        // — only what the host's buffers and the wire hold. With Linux 2.4's
        // profile the host holds txqueuelen + the e1000 ring (100 + about 78
        // jumbo segments; the bound below allows 128 ring places, a loose
        // upper bound); Sandia's 10 Gb/s study's ~300 kB came from a 10 Gb/s client whose
        // ring never fills, which this 1 Gb/s lab does not model
        // (documented gap).
        let host_kb = (100.0 + 128.0 + 4.0) * 8.948;
        assert!(kb < 0.5 * 5.0 * MB / 1e3, "{s}: {kb} kB outstanding");
        assert!(kb <= host_kb, "{s}: {kb} kB is more than the host holds");
    }
}

// ---------------------------------------------------------------------------
// Lab 2: back-to-back, 30 ms.

/// Long 2003 Fig. 10-12: with jumbo frames the algorithms agree while the
/// window is below the bandwidth-delay product; above 3 MB HighSpeed beats
/// Standard by over 100 Mb/s (~14%) and Scalable by ~70 Mb/s (~8%), through
/// back-offs at the full interface queue with no network loss.
///
/// On the Linux 2.4 profile the gains appear only once the advertised
/// window exceeds what the path and the host hold: Linux 2.4's
/// receive-buffer accounting offers ¾ of a 4 MB setting (3 MB, below the
/// 3.7 MB bandwidth-delay product), so at 4 MB all three are window-limited
/// alike; the check runs at 8 and 16 MB (6 MB offered). Not reproduced:
/// HighSpeed ahead of Scalable (the two are within 1 % here) and the size
/// of the gains (about +3 to +5 % since local back-offs halve for every
/// algorithm, as Linux 2.4's `__tcp_enter_cwr` does; paper +14 % and +8 %); see
/// FIDELITY.md and docs/profiles.md for the mechanisms still missing. At
/// MTU 1500 the algorithms differ widely where the paper found them close;
/// only jumbo frames are checked.
#[test]
fn lab02_highspeed_and_scalable_beat_standard_above_3_mb() {
    let l = lab("back-to-back-30ms").unwrap();
    header(l);
    let small = [0.5 * MB, 1.0 * MB];
    let large = [8.0 * MB, 16.0 * MB];
    let all: Vec<f64> = small.iter().chain(&large).copied().collect();
    let series = ["reno-9000", "highspeed-9000", "scalable-9000"];
    let rs = run_jobs(l, &grid(&series, &all, &[1]), |_| {});
    for w in small {
        let v: Vec<f64> = series
            .iter()
            .map(|s| mean(&rs, s, Some(w), total))
            .collect();
        say!(
            l,
            "window {:>6}: Standard {:.1}, HighSpeed {:.1}, Scalable {:.1} Mb/s (paper: the same)",
            size(w),
            v[0],
            v[1],
            v[2]
        );
        assert!((v[0] - v[1]).abs() <= 0.01 * v[0] && (v[0] - v[2]).abs() <= 0.01 * v[0]);
    }
    for w in large {
        let std = mean(&rs, "reno-9000", Some(w), total);
        let hs = mean(&rs, "highspeed-9000", Some(w), total);
        let sc = mean(&rs, "scalable-9000", Some(w), total);
        say!(l,
            "window {:>6}: Standard {std:.1}, HighSpeed {hs:.1} (+{:.1}, +{:.0}%; paper +100, +14%), Scalable {sc:.1} (+{:.1}, +{:.0}%; paper +70, +8%) Mb/s",
            size(w),
            hs - std,
            100.0 * (hs / std - 1.0),
            sc - std,
            100.0 * (sc / std - 1.0)
        );
        assert!(hs > 1.02 * std, "HighSpeed {hs} vs Standard {std} at {w}");
        assert!(sc > 1.02 * std, "Scalable {sc} vs Standard {std} at {w}");
        // The documented gap (the lab's "still missing" mechanism): the
        // gains stay below the paper's and Scalable, not HighSpeed, leads.
        // If the model closes the gap this fails, and the lab's text and
        // its simulator sentences must be revisited.
        assert!(
            hs - std < 100.0 && sc - std < 100.0,
            "gains {hs} / {sc} over {std}"
        );
    }
    // Fig. 12: the back-offs are local, not network losses.
    for r in &rs {
        assert_eq!(r.drops, 0, "{} x={}", r.series, r.x);
        if r.x.as_number().unwrap() > 3.0 * MB {
            assert!(r.local_congestion_events >= 1, "{} x={}", r.series, r.x);
        }
    }
}

// ---------------------------------------------------------------------------
// Lab 3: txqueuelen sweep.

/// Long 2003 Fig. 11: with jumbo frames and windows above 3 MB HighSpeed
/// gains about 100 Mb/s (14 %) over Standard TCP and Scalable about 70
/// (8 %): HighSpeed ahead. Known gap on the Linux 2.4 profile: Scalable
/// gains more than HighSpeed (FIDELITY.md, lab 2). Fails when the gap
/// closes; then assert the paper's order in `lab02_…` instead.
#[test]
fn known_gap_lab02_scalable_gains_more_than_highspeed() {
    let l = lab("back-to-back-30ms").unwrap();
    let rs = run_jobs(
        l,
        &grid(
            &["reno-9000", "highspeed-9000", "scalable-9000"],
            &[8.0 * MB, 16.0 * MB],
            &[1],
        ),
        |_| {},
    );
    let hs = mean(&rs, "highspeed-9000", None, total);
    let sc = mean(&rs, "scalable-9000", None, total);
    assert!(
        sc > hs,
        "HighSpeed {hs} now ahead of Scalable {sc}, as in the paper: flip this test"
    );
}

/// Long 2003 Fig. 31, 35, 40: Standard TCP's throughput rises with
/// txqueuelen, from 828 Mb/s at 100 to 966 Mb/s above 210 (+16%); the fast
/// algorithms gain less (Scalable +7.7%, HighSpeed +2%).
///
/// With the linux-2.4 profile (the e1000 ring in descriptors behind the
/// interface queue) the three converge above 210 (953 Mb/s each at the
/// faithful scale, paper 966) and Standard is within 10 % of the paper at
/// 100 (839 vs 828): Standard gains +13.5 %, Scalable +7.9 % (paper +16.7 %,
/// +7.7 %). Not reproduced: HighSpeed's small gain (+9.0 % against +1.9 %),
/// since the model's HighSpeed loses more to local back-offs at 100 (874 vs
/// 948; FIDELITY.md, lab 3's "Still missing" line).
/// Asserted: Standard's throughput rises with txqueuelen, is highest above
/// 210, is within 10 % of both published values, and gains the most.
#[test]
fn lab03_standard_gains_most_from_a_longer_txqueuelen() {
    let l = lab("txqueuelen").unwrap();
    header(l);
    let qs = [25.0, 100.0, 150.0, 225.0, 250.0];
    let rs = run_jobs(
        l,
        &grid(&["reno", "highspeed", "scalable"], &qs, &[1]),
        |_| {},
    );
    let mut gains = Vec::new();
    for (s, p100, p210) in [
        ("reno", 828.0, 966.0),
        ("scalable", 897.0, 966.0),
        ("highspeed", 948.0, 966.0),
    ] {
        let v: Vec<f64> = qs.iter().map(|q| mean(&rs, s, Some(*q), total)).collect();
        let at100 = v[1];
        let above210 = (v[3] + v[4]) / 2.0;
        let gain = 100.0 * (above210 / at100 - 1.0);
        say!(l,
            "{s:>9}: txqueuelen {qs:?} -> {:?} Mb/s; 100: {at100:.0} (paper {p100}), >210: {above210:.0} (paper {p210}), gain {gain:+.1}% (paper {:+.1}%)",
            v.iter().map(|x| x.round()).collect::<Vec<_>>(),
            100.0 * (p210 / p100 - 1.0)
        );
        gains.push(gain);
        if s == "reno" {
            for pair in v.windows(2) {
                assert!(pair[1] >= pair[0], "Standard falls with txqueuelen: {v:?}");
            }
            let best = v.iter().cloned().fold(f64::MIN, f64::max);
            assert!(
                v[3] == best || v[4] == best,
                "Standard's best is not above 210: {v:?}"
            );
            // The paper's two values themselves, within 10 %.
            assert!(
                (at100 / p100 - 1.0).abs() <= 0.10,
                "Standard at 100: {at100:.0} vs paper {p100}"
            );
            assert!(
                (above210 / p210 - 1.0).abs() <= 0.10,
                "Standard above 210: {above210:.0} vs paper {p210}"
            );
        }
    }
    assert!(
        gains[0] > gains[1] && gains[0] > gains[2],
        "Standard should gain most: {gains:?}"
    );
    // The lab's mechanism: the high-speed algorithms regrow faster after
    // the CWR cut, so a short queue costs them less (the page's own
    // sentence about it, at 5 packets, is checked in lab_claims.rs).
    let std25 = mean(&rs, "reno", Some(25.0), total);
    for s in ["highspeed", "scalable"] {
        let v = mean(&rs, s, Some(25.0), total);
        assert!(
            v > std25,
            "{s} {v:.0} not above Standard {std25:.0} at txqueuelen 25"
        );
    }
}

// ---------------------------------------------------------------------------
// Lab 4: two-to-one.

/// Long 2003 Fig. 20-22: two senders into one gigabit port, windows above
/// 2 MB. Standard TCP's share is 38% against another Standard flow, 35.5%
/// against HighSpeed and 29.5% against Scalable: the faster the other
/// algorithm recovers, the less Standard keeps.
#[test]
fn lab04_standard_share_falls_against_faster_algorithms() {
    let l = lab("two-to-one").unwrap();
    header(l);
    let series = ["std-std", "hs-std", "sc-std"];
    let rs = run_jobs(
        l,
        &grid(&series, &[4.0 * MB, 16.0 * MB], &[1, 2, 3]),
        |_| {},
    );
    let mut shares = Vec::new();
    for (s, paper_share, paper_other, paper_std) in [
        ("std-std", 0.38, 500.0, 308.0),
        ("hs-std", 0.355, 520.0, 285.0),
        ("sc-std", 0.295, 582.0, 242.0),
    ] {
        let sh = mean(&rs, s, None, share);
        let other = mean(&rs, s, None, |r| r.group_throughput_mbps[0]);
        let std = mean(&rs, s, None, |r| r.group_throughput_mbps[1]);
        say!(l,
            "{s}: client 1 {other:.0} vs Standard {std:.0} Mb/s (paper {paper_other} vs {paper_std}), Standard's share {sh:.3} (paper {paper_share})"
        );
        shares.push(sh);
        if s != "std-std" {
            assert!(other > std, "{s}: the fast flow should take more");
        }
    }
    assert!(
        shares[2] < shares[1] && shares[1] < shares[0],
        "Standard's share should be Scalable < HighSpeed < Standard: {shares:?}"
    );
}

// ---------------------------------------------------------------------------
// Lab 5: Scalable's a and b.

/// Long 2003 Table 3 ranks eight [a, b] pairs by combined throughput:
/// 1/100,1/8 first and 2/25,1/2 last; Kelly's [1/100, 1/8] beat the kernel
/// default [1/50, 1/8] (fourth).
///
/// The simulated ranking differs in the middle, where combined
/// throughputs lie within a few percent (it puts the paper's second,
/// [1/50, 1/4], first). Asserted: that pair ranks in the upper half.
///
/// Known gap: the paper's last pair [2/25, 1/2] and the other pair that
/// halves on a loss, [1/25, 1/2] (paper: sixth), ranked in the lower half
/// of the quick runs until the sender stopped growing cwnd on ACKs that
/// only SACK (Linux 2.4's `tcp_ack` grows it only with `FLAG_DATA_ACKED`;
/// docs/CROSSCHECK.md §D); since then they rank fourth and second there.
/// Printed, not asserted.
///
/// Kelly's [1/100, 1/8] against the kernel default is not asserted here:
/// at the faithful scale it ranked above it as the paper found (FIDELITY.md:
/// second against sixth), but the quick runs are too short to order pairs
/// whose combined throughputs lie within a few per cent.
#[test]
fn lab05_the_papers_second_pair_ranks_in_the_upper_half() {
    let l = lab("scalable-ab").unwrap();
    header(l);
    let series: Vec<&str> = l.series.iter().map(|s| s.id.as_str()).collect();
    let rs = run_jobs(
        l,
        &grid(&series, &[4.0 * MB, 8.0 * MB, 16.0 * MB], &[1, 2]),
        |_| {},
    );
    let ranks = rank_series(l, &rs).expect("lab 5 ranks its series");
    let paper = [
        "a1_100-b1_8",
        "a1_50-b1_4",
        "a1_25-b1_4",
        "a1_50-b1_8",
        "a1_200-b1_16",
        "a1_25-b1_2",
        "a1_100-b1_16",
        "a2_25-b1_2",
    ];
    let rank_of = |id: &str| 1 + ranks.iter().position(|(s, _, _)| s == id).unwrap();
    for (i, (id, by, tie)) in ranks.iter().enumerate() {
        let p = 1 + paper.iter().position(|s| s == id).unwrap();
        say!(
            l,
            "rank {}: {id:<13} combined {by:.1} Mb/s, Standard {tie:.1} Mb/s (paper rank {p})",
            i + 1
        );
    }
    assert!(
        rank_of("a1_50-b1_4") <= paper.len() / 2,
        "a1_50-b1_4 ranks in the lower half"
    );
}

// ---------------------------------------------------------------------------
// Lab 6: txqueuelen in two-to-one.

/// Long 2003 Fig. 38-39: two Scalable flows lose combined throughput with
/// the longer interface queue (897 → 886 Mb/s, −1.2 %).
///
/// Known gap: with the receiver's interrupt moderation modelled (ACKs leave
/// the receiver in batches), no two-to-one sender backs off locally any
/// more, so the queue's length changes nothing for the Scalable pair
/// either. (Before it, a Scalable sender that had squeezed its peer and
/// whose NIC clock ran slower than the switch port's overflowed txqueuelen
/// 100.) Pinned here; fails when the gap closes.
#[test]
fn known_gap_lab06_two_scalable_flows_unchanged_by_txqueuelen_250() {
    let l = lab("txqueuelen-two-to-one").unwrap();
    header(l);
    let seeds: Vec<u32> = (1..=10).collect();
    let rs = run_jobs(
        l,
        &grid(&["sc-sc-q100", "sc-sc-q250"], &[16.0 * MB], &seeds),
        |_| {},
    );
    let t = |s: &str| mean(&rs, s, None, total);
    let local = |s: &str| mean(&rs, s, None, |r| r.local_congestion_events as f64);
    say!(l,
        "sc-sc at 16 MB: combined {:.0} -> {:.0} Mb/s (paper 897 -> 886); local back-offs {:.1} -> {:.1}",
        t("sc-sc-q100"), t("sc-sc-q250"), local("sc-sc-q100"), local("sc-sc-q250")
    );
    assert_eq!(
        (t("sc-sc-q250"), local("sc-sc-q100"), local("sc-sc-q250")),
        (t("sc-sc-q100"), 0.0, 0.0),
        "known gap closed: txqueuelen now matters to the Scalable pair — assert the paper's finding (txqueuelen 250 costs it)"
    );
}

/// Long 2003 Fig. 32-37, 41-44: a longer interface queue (250) lowers two
/// Standard flows' combined throughput (808 → 767 Mb/s) and two HighSpeed
/// flows' (824 → 817), and in mixed pairs raises the total while nearly
/// halving Standard TCP's throughput.
///
/// Known gap on the Linux 2.4 profile: without Scalable TCP no sender ever
/// sends alone long enough for its host's queue to stand, so its losses
/// come at the switch first and txqueuelen 100 and 250 run identically.
/// Beside Scalable the local back-offs at txqueuelen 100 appear (the test
/// above), but Standard's throughput in the mixed pair does not halve. Each
/// assertion fails when its gap closes, and is then turned into the
/// paper's check (FIDELITY.md, docs/profiles.md).
#[test]
fn known_gap_lab06_txqueuelen_changes_nothing_without_scalable() {
    let l = lab("txqueuelen-two-to-one").unwrap();
    header(l);
    let pairs = [
        ("std-std", "paper 808 -> 767"),
        ("hs-hs", "paper 824 -> 817"),
        ("hs-std", "paper: total up, Standard nearly halved"),
        ("sc-std", "paper: total up, Standard nearly halved"),
    ];
    let names: Vec<String> = pairs
        .iter()
        .flat_map(|(p, _)| [format!("{p}-q100"), format!("{p}-q250")])
        .collect();
    let series: Vec<&str> = names.iter().map(String::as_str).collect();
    let rs = run_jobs(
        l,
        &grid(&series, &[4.0 * MB, 16.0 * MB], &[1, 2, 3, 4]),
        |_| {},
    );
    let t = |s: &str| mean(&rs, s, None, total);
    let drops = |s: &str| mean(&rs, s, None, |r| r.drops as f64);
    let local = |s: &str| mean(&rs, s, None, |r| r.local_congestion_events as f64);
    let std = |s: &str| {
        rs.iter()
            .any(|r| r.series == s && r.standard_share.is_some())
            .then(|| mean(&rs, s, None, |r| r.standard_throughput_mbps.unwrap()))
    };
    for (pair, paper) in pairs {
        let q100 = format!("{pair}-q100");
        let q250 = format!("{pair}-q250");
        say!(l,
            "{pair}: combined {:.0} -> {:.0} Mb/s ({paper}); Standard {:?} -> {:?}; network drops {:.0} -> {:.0}; local back-offs {:.1} -> {:.1}",
            t(&q100), t(&q250),
            std(&q100).map(|v| v.round()), std(&q250).map(|v| v.round()),
            drops(&q100), drops(&q250), local(&q100), local(&q250)
        );
        if pair == "sc-std" {
            let (a, b) = (std(&q100).unwrap(), std(&q250).unwrap());
            assert!(
                b > 0.75 * a,
                "Standard beside Scalable now loses a quarter or more with txqueuelen 250 ({a:.0} -> {b:.0}) — restore the paper's finding"
            );
        } else {
            assert_eq!(
                (t(&q250), drops(&q250), local(&q100)),
                (t(&q100), drops(&q100), 0.0),
                "{pair}: txqueuelen now matters — restore the paper's finding here"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Lab 7: parallel streams.

/// Long 2003 Fig. 45-48: with parallel streams the fast algorithms' gain
/// over Standard shrinks: 1-7% with 2 streams, and with 16 streams Standard
/// is slightly ahead (HighSpeed 0.5-1% below, Scalable up to 3% below).
///
/// Not reproduced: Standard overtaking at 16 streams. Here all three fill
/// the link to within 0.1% of each other at 16 streams (978 of 990 Mb/s),
/// a tie rather than a small loss: each stream's back-off at the full
/// interface queue cuts 1/16 of the aggregate while the shared queue stays
/// backlogged, and nothing else in the model makes the fast algorithms'
/// extra back-offs cost anything (no CPU or interrupt load, no NIC ring,
/// no timing noise; the lab's model differences and docs/ENGINE.md).
/// Asserted: a gain at 2 streams that shrinks to under 1% at 16.
#[test]
fn lab07_fast_algorithms_gain_shrinks_with_more_streams() {
    let l = lab("parallel-streams").unwrap();
    header(l);
    let rs = run_jobs(
        l,
        &grid(&["reno", "highspeed", "scalable"], &[2.0, 16.0], &[1, 2]),
        |_| {},
    );
    for (s, paper2, paper16) in [
        ("highspeed", "1..7", "-1..-0.5"),
        ("scalable", "1..7", "-3..-1"),
    ] {
        let gain = |n: f64| {
            100.0 * (mean(&rs, s, Some(n), total) / mean(&rs, "reno", Some(n), total) - 1.0)
        };
        say!(l,
            "{s} over Standard: N=2 {:+.2}% (paper {paper2}%), N=16 {:+.2}% (paper {paper16}%); Standard {:.0} / {:.0} Mb/s",
            gain(2.0),
            gain(16.0),
            mean(&rs, "reno", Some(2.0), total),
            mean(&rs, "reno", Some(16.0), total)
        );
        assert!(gain(2.0) > 0.0, "{s} does not gain at N=2");
        assert!(gain(16.0) < gain(2.0), "{s}: the gain does not shrink");
        assert!(
            gain(16.0) < 1.0,
            "{s} still gains {:.2}% at N=16",
            gain(16.0)
        );
    }
}

// ---------------------------------------------------------------------------
// Lab 8: 10 Gb/s into 1 Gb/s.

/// Sandia's 10 Gb/s study Table 7 and 14: a 10 Gb/s client into a 1 Gb/s switch port at
/// 30 ms, 5 MB window. A single flow gets Standard 619 < HighSpeed 760 <
/// Scalable 909 Mb/s, against about 988 with no delay; with two clients
/// Scalable was the dominant protocol for every number of streams.
///
/// Not reproduced: the drops (5, 3, 1 in the paper's plotted runs) and the
/// single flow's throughput at 30 ms. The simulated 10 Gb/s NIC sends its
/// last slow-start round at the full 10 Gb/s into the assumed 116-packet
/// switch buffer, so every algorithm drops 8 packets in one event; after
/// that each sits at Linux 2.4's receive-window cap (3.75 MiB) with about
/// 22 packets queued and never loses again, where the testbed's flows lost
/// packets at that cap several times a minute (see
/// `known_gap_lab08_lone_flow_repeats_from_seed_to_seed`). The paper
/// counted the drops of one plotted run (the lab's model differences).
/// Throughput with
/// two clients also rises less regularly with the number of streams than
/// in Table 14 (HighSpeed dips at 2 and 4). Asserted: the single-flow
/// order, the no-delay ceiling, Scalable leading with two clients, and
/// more throughput with 8 streams per client than with 1.
#[test]
fn lab08_single_flow_standard_below_highspeed_below_scalable() {
    let l = lab("ten-into-one").unwrap();
    header(l);
    let algs = ["reno", "highspeed", "scalable"];
    let mut jobs = Vec::new();
    for alg in algs {
        for s in ["1c-30ms", "1c-0ms"] {
            jobs.push(job(&format!("{alg}-{s}"), 1.0, 1));
        }
        jobs.extend(grid(&[&format!("{alg}-2c-30ms")], &[1.0, 8.0], &[1, 2]));
    }
    // The paper's 60-s runs.
    let rs = run_jobs(l, &jobs, duration(60000.0));
    let single: Vec<f64> = algs
        .iter()
        .map(|a| mean(&rs, &format!("{a}-1c-30ms"), None, total))
        .collect();
    for (i, (a, p30, p0, drops)) in [
        ("reno", 619.3, 988.3, 5),
        ("highspeed", 759.7, 988.2, 3),
        ("scalable", 908.6, 985.3, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let zero = mean(&rs, &format!("{a}-1c-0ms"), None, total);
        let d = mean(&rs, &format!("{a}-1c-30ms"), None, |r| r.drops as f64);
        say!(l,
            "{a:>9}, one flow: 30 ms {:.0} Mb/s (paper {p30}), {d:.0} drops (paper {drops}); 0 ms {zero:.0} Mb/s (paper {p0})",
            single[i]
        );
        assert!(zero > 0.97 * 990.0, "{a}: {zero} Mb/s with no delay");
        assert!(single[i] < zero, "{a}: 30 ms is not below no delay");
    }
    assert!(
        single[0] < single[1] && single[1] < single[2],
        "single flow at 30 ms should be Standard < HighSpeed < Scalable: {single:?}"
    );
    let two = |a: &str, n: f64| mean(&rs, &format!("{a}-2c-30ms"), Some(n), total);
    for (n, paper) in [(1.0, [811.6, 838.2, 917.4]), (8.0, [950.22, 959.38, 996.6])] {
        let v: Vec<f64> = algs.iter().map(|a| two(a, n)).collect();
        say!(l,
            "two clients, {n} streams each: Standard {:.0}, HighSpeed {:.0}, Scalable {:.0} Mb/s (paper {paper:?})",
            v[0], v[1], v[2]
        );
        // Sandia's 10 Gb/s study Table 14: Scalable leads with one and with eight
        // streams per client.
        assert!(
            v[2] > v[0] && v[2] > v[1],
            "Scalable should lead at N={n}: {v:?}"
        );
    }
    for a in algs {
        assert!(
            two(a, 8.0) > two(a, 1.0),
            "{a}: 8 streams per client do not beat 1"
        );
    }
}

/// Sandia's 10 Gb/s study Table 2: ten identical 60-s runs of one Standard TCP flow at
/// 30 ms gave 515 to 746 Mb/s, and Fig. 6 shows the flow losing packets
/// five times in 60 s, at the top of its outstanding data (about 3.75 MB,
/// Linux 2.4's receive-window cap for the 5 MB setting). Known gap on the
/// `linux-2.4-ixgb` profile: the flow loses packets once, in slow start,
/// then sits at the cap with about 22 packets queued at the switch and
/// never loses again, so every seed gives the same throughput and the same
/// drops (docs/profiles.md, "A lone flow's losses at the window cap": no
/// sourced mechanism loses packets there). Fails when the seeds' runs
/// differ by more than 1 % or in their drops; then assert the paper's
/// run-to-run spread instead.
#[test]
fn known_gap_lab08_lone_flow_repeats_from_seed_to_seed() {
    let l = lab("ten-into-one").unwrap();
    let rs = run_jobs(
        l,
        &grid(&["reno-1c-30ms"], &[1.0], &[1, 2, 3]),
        duration(60000.0),
    );
    let v: Vec<f64> = rs.iter().map(total).collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(0.0, f64::max);
    say!(
        l,
        "one Standard flow at 30 ms, seeds 1-3: {lo:.2} to {hi:.2} Mb/s, drops {:?} (paper: 515 to 746 Mb/s over ten runs)",
        rs.iter().map(|r| r.drops).collect::<Vec<_>>()
    );
    assert!(
        hi - lo < 0.01 * hi,
        "seeds now differ ({lo} to {hi} Mb/s), as the testbed's runs did: flip this test"
    );
    assert!(
        rs.iter().all(|r| r.drops == rs[0].drops && r.timeouts == 0),
        "the seeds' losses now differ: flip this test"
    );
}

/// Sandia's 10 Gb/s study, no delay (p. 16-17, Fig. 4 and 7): one Standard
/// TCP flow from the 10 Gb/s client through the Foundry into the 1 Gb/s
/// server ran at 988 Mb/s with "no dropped packets" and "approximately
/// 300 Kbytes" outstanding in tcpdump's plot on the client. Known gap on
/// the `linux-2.4-ixgb` profile: the client's 10 Gb/s NIC fills the
/// switch's buffer (116 packets assumed, a stated unknown), so the flow
/// loses packets in every run, and what tcpdump would see outstanding
/// (sent to the driver, not yet acknowledged) is well above 300 kB.
/// docs/profiles.md ("The follow-up's no-delay run") names the mechanism
/// that would fit all three observations, 802.3x PAUSE from the switch,
/// unsourced and so not modelled. Fails when the run stops losing
/// packets or its captured outstanding data comes within a factor of 1.5
/// of 300 kB; then assert the paper's observations instead.
#[test]
fn known_gap_lab08_no_delay_flow_loses_packets_at_the_switch() {
    let l = lab("ten-into-one").unwrap();
    let rs = run_jobs(
        l,
        &grid(&["reno-1c-0ms"], &[1.0], &[1, 2]),
        duration(20000.0),
    );
    for r in &rs {
        let captured_kb = r
            .mean_captured_outstanding_kbytes
            .expect("lab 8 measures the outstanding data tcpdump sees");
        say!(
            l,
            "one Standard flow, no delay, seed {}: {:.0} Mb/s, {} drops, {captured_kb:.0} kB outstanding as captured (paper: 988 Mb/s, no drops, about 300 kB)",
            r.seed,
            total(r),
            r.drops
        );
        assert!(
            r.drops > 0,
            "the no-delay run no longer drops packets, as on the testbed: flip this test"
        );
        assert!(
            captured_kb > 1.5 * 300.0,
            "captured outstanding data {captured_kb:.0} kB is now near the paper's 300 kB: flip this test"
        );
    }
}

// ---------------------------------------------------------------------------
// Lab 9: RTT sweep and fairness against NewReno.

/// Bateman et al. 2008 Fig. 3-4: good fairness (Jain's index) between NewReno and
/// each high-speed variant, on ns-2 and on the testbed, although the index
/// "masks the overall higher throughput of the high-speed variants
/// compared to NewReno".
///
/// Shortened to 30-s runs, the second flow starting at 5 s, measured from
/// 10 s. With the 420 000-packet buffer nothing is lost in such a run:
/// each flow backs off once, when its 100 000-packet interface queue fills,
/// by its algorithm's own decrease (to 0.8 for BIC and CUBIC, about 0.9
/// for HighSpeed at these 10^5-packet windows, 7/8 for Scalable, 1/2 for
/// NewReno and
/// for H-TCP, whose adaptive decrease is 1/2 when queueing dominates the
/// RTT), and the high-speed variants keep more. Asserted: against every
/// variant NewReno keeps no more than against another NewReno flow, at 50
/// and 200 ms. "Good fairness" is printed, not asserted: the paper's
/// indices are in its figure only. Here they are 0.74-0.84, and 0.81-0.84
/// for NewReno against NewReno, where the later flow ends up with the
/// larger window (its one back-off comes when the queue, and so the RTT,
/// is larger): start order, not algorithm, decides that part.
#[test]
fn lab09_high_speed_variants_take_at_least_newrenos_part() {
    let l = measured_from("rtt-fairness", 10.0);
    header(&l);
    let series = [
        "newreno-vs-newreno",
        "newreno-vs-bic",
        "newreno-vs-cubic",
        "newreno-vs-highspeed",
        "newreno-vs-htcp",
        "newreno-vs-scalable",
    ];
    let rs = run_jobs(
        &l,
        &grid(&series, &[50.0, 200.0], &[1]),
        |p: &mut SweepPoint| {
            p.scenario.duration_ms = 30000.0;
            p.scenario.hosts[1].flows[0].start_ms = 5000.0;
        },
    );
    for rtt in [50.0, 200.0] {
        let base = mean(&rs, series[0], Some(rtt), share);
        for s in series {
            let sh = mean(&rs, s, Some(rtt), share);
            let j = mean(&rs, s, Some(rtt), |r| r.jain_index);
            let lost = mean(&rs, s, Some(rtt), |r| r.drops as f64);
            let local = mean(&rs, s, Some(rtt), |r| r.local_congestion_events as f64);
            say!(l,
                "RTT {rtt} ms, {s:<21}: NewReno's share {sh:.3}, Jain's index {j:.3} (paper: good fairness, values in Fig. 4); {lost:.0} drops, {local:.0} local back-offs"
            );
            assert!(
                sh <= base + 0.01,
                "{s} at {rtt} ms: NewReno keeps {sh} > {base} against NewReno"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Lab 10: HighSpeed parameters and many flows.

/// Give each host the start time of the host half a list away: with flow
/// pairs (hosts of the first series entry, then of the second) this swaps
/// which algorithm starts first.
fn swap_start_order(p: &mut SweepPoint) {
    let hosts = &mut p.scenario.hosts;
    let n = hosts.len();
    let starts: Vec<f64> = hosts.iter().map(|h| h.flows[0].start_ms).collect();
    for (i, h) in hosts.iter_mut().enumerate() {
        for f in &mut h.flows {
            f.start_ms = starts[(i + n / 2) % n];
        }
    }
}

/// the HighSpeed ns-2 study Fig. 7-8: in a half-HighSpeed, half-Standard mixture HighSpeed
/// takes more than its share, and its congestion-event (ECN mark) rate is
/// higher than Standard TCP's.
///
/// Not reproduced: the trend, HighSpeed's unfairness shrinking as flows
/// are added (Fig. 7), and its better utilisation with few flows (Fig. 4).
/// With 2 flows on this 8000-packet path a run of tens of seconds is
/// decided by which flow starts first, whatever the algorithms: the later
/// flow joins a full pipe, leaves slow start at once and regrows by one
/// (Standard) or a few (HighSpeed) packets per 100-ms round trip. In the
/// lab as shipped HighSpeed always starts first, so Standard's share there
/// (about 0.04) rises with the flow count only because the start order
/// stops mattering; with the order swapped Standard keeps about 0.9. Once
/// both orders are averaged, HighSpeed takes more at 10 and at 40 flows
/// alike: at ~200 packets per flow RFC 3649 still gives it a(w) ~ 3 and
/// b(w) ~ 0.42 against Standard's 1 and 0.5. The paper's run lengths,
/// background traffic and RED settings are not given (the lab's model
/// differences); these runs have no background traffic. Utilisation is
/// likewise set by the slow-start overshoot into RED's slow average, where
/// HighSpeed's smaller cuts draw repeated ECN reductions. The corrected
/// High Window of 8300 is not used: with the default High P (1e-7) RFC
/// 3649's formulas give it a(w) = 1.0-1.1 at every window, so it grows
/// like Standard TCP. Asserted with the High Window of the HighSpeed ns-2 study's
/// reference [6] (83000): HighSpeed's share above one half in 10- and
/// 40-flow mixtures, averaged over both start orders. Its higher
/// congestion-event rate is a known gap (below).
#[test]
fn lab10_highspeed_takes_more_than_its_share() {
    let l = measured_from("highspeed-many-flows", 10.0);
    header(&l);
    let counts = [2.0, 10.0, 40.0];
    let mix: Vec<Job> = counts
        .iter()
        .map(|n| job("mix-hs83000-1g", *n, 1))
        .collect();
    let rs = run_jobs(&l, &mix, duration(30000.0));
    let swapped = run_jobs(&l, &mix, |p: &mut SweepPoint| {
        p.scenario.duration_ms = 30000.0;
        swap_start_order(p);
    });
    for n in counts {
        let hs_first = mean(&rs, "mix-hs83000-1g", Some(n), share);
        let std_first = mean(&swapped, "mix-hs83000-1g", Some(n), share);
        let both = (hs_first + std_first) / 2.0;
        say!(l,
            "mixture of {n} flows, HW 83000: Standard's share {hs_first:.3} (HighSpeed starts first), {std_first:.3} (Standard first), {both:.3} averaged (paper: below 0.5 with few flows, tending to fair)"
        );
        if n >= 10.0 {
            assert!(both < 0.5, "{n} flows: Standard keeps {both} of the link");
        }
    }
}

/// the HighSpeed ns-2 study Fig. 8: the congestion-event (ECN mark) rate is higher with
/// HighSpeed than with Regular TCP. Known gap on the ns-2 profile: it is
/// the lower here, though only just (0.0053 vs 0.0054 marks per packet
/// with 2 flows); it stayed so when the lab moved to ns-2's plain sink (no
/// delayed ACKs). What is still missing: the paper's RED parameters, RTT
/// and background traffic, which it does not give (the lab's assumptions
/// are in its "where the simulator differs"). Fails when the gap closes:
/// then assert the paper's order instead.
#[test]
fn known_gap_lab10_highspeed_sees_fewer_congestion_events() {
    let l = measured_from("highspeed-many-flows", 10.0);
    header(&l);
    let jobs = vec![job("all-std-1g", 2.0, 1), job("all-hs83000-1g", 2.0, 1)];
    let rs = run_jobs(&l, &jobs, duration(30000.0));
    let cer = |s: &str| mean(&rs, s, Some(2.0), |r| r.congestion_event_rate);
    let util = |s: &str| mean(&rs, s, Some(2.0), |r| r.utilisation);
    say!(l,
        "2 flows: congestion events per packet, Standard {:.5}, HighSpeed {:.5} (paper: higher with HighSpeed); utilisation {:.3} vs {:.3} (paper: higher with HighSpeed)",
        cer("all-std-1g"),
        cer("all-hs83000-1g"),
        util("all-std-1g"),
        util("all-hs83000-1g")
    );
    assert!(
        cer("all-hs83000-1g") <= cer("all-std-1g"),
        "HighSpeed's congestion-event rate is now the higher, as in the paper — restore the check"
    );
}

// ---------------------------------------------------------------------------
// Lab 11: low initial ssthresh.

/// Mills et al. (NIST) §7: from an initial ssthresh of 100 packets, Reno takes far
/// longer than every other algorithm to reach the maximum rate (and never
/// reaches it on the longest path); FAST converges most quickly, followed
/// by CTCP.
///
/// Not reproduced: FAST-AT among the quickest (here it is the slowest
/// after Reno, 8.9 s at 25 ms, and does not get there within 120 s at
/// 100 ms). After its start-up it lowers alpha to 20 or 8 packets while its
/// rate is below thresholds the seed does not give (10 and 100 Mb/s are
/// the simulator's choice, see cc/fast.rs), and raises it only every
/// 200 s, so it climbs slowly from the low initial ssthresh (with alpha
/// held at 200 it gets there in 1.9 s, like FAST); NIST's network was
/// loaded and its thresholds are unstated. Asserted
/// at 25 ms: Reno last by far, and FAST ahead of CTCP.
#[test]
fn lab11_reno_is_the_slowest_to_reach_the_maximum_rate() {
    let l = lab("low-ssthresh").unwrap();
    header(l);
    let algs = [
        "bic", "ctcp", "fast", "hstcp", "htcp", "scalable", "fast-at", "reno",
    ];
    let rs = run_jobs(
        l,
        &grid(&algs, &[25.0], &[l.seeds(Scale::Quick)[0]]),
        duration(15000.0),
    );
    let time = |s: &str| {
        mean(&rs, s, None, |r| {
            r.time_to_max_rate_s.unwrap_or(f64::INFINITY)
        })
    };
    for s in algs {
        let t = time(s);
        let t = if t.is_finite() {
            format!("{t:.1} s")
        } else {
            "not within 15 s".into()
        };
        say!(l,
            "RTT 25 ms, {s:>8}: {t} to the maximum rate (paper: Reno far slowest; FAST, FAST-AT, then CTCP fastest)"
        );
    }
    for s in &algs[..algs.len() - 1] {
        assert!(time(s).is_finite(), "{s} never reaches the maximum rate");
        assert!(time(s) < time("reno"), "{s} is not faster than Reno");
    }
    assert!(
        time("fast") < time("ctcp"),
        "FAST should converge before CTCP"
    );
}

// ---------------------------------------------------------------------------
// Lab 12: bufferbloat and queue management (issue 15).

/// Nichols & Jacobson (2012), Fig. 5 and 7: Tail Drop keeps the buffer full,
/// so the delay grows with the buffer; CoDel holds the standing queue near
/// its 5 ms target whatever the buffer, with utilisation close to Tail
/// Drop's. RFC 8290: FQ-CoDel serves the sparse ping first. RFC 8033: PIE
/// steers the delay towards 15 ms.
#[test]
fn lab12_drop_tail_bloats_and_the_aqms_hold_their_targets() {
    let l = lab("bufferbloat-aqm").unwrap();
    header(l);
    let series = ["drop-tail", "codel", "fq-codel", "pie"];
    let rs = run_jobs(l, &grid(&series, &[1.0, 8.0], &[1]), |_| {});
    let med = |s: &str, x: f64| mean(&rs, s, Some(x), |r| r.probe_rtt_median_ms.unwrap());
    let qd = |s: &str, x: f64| mean(&rs, s, Some(x), |r| r.mean_queue_delay_ms.unwrap());
    let util = |s: &str, x: f64| mean(&rs, s, Some(x), |r| r.utilisation);
    for s in series {
        say!(l, "{s}: ping median {:.1} ms at 1 BDP, {:.1} ms at 8 BDP; queueing delay {:.1} ms at 8 BDP; utilisation {:.3}", med(s, 1.0), med(s, 8.0), qd(s, 8.0), util(s, 8.0));
    }
    // Tail Drop: the delay grows with the buffer, by about buffer ÷ rate
    // (8 BDP − 1 BDP of a 100 ms path: 700 ms), at least half of that.
    assert!(med("drop-tail", 8.0) - med("drop-tail", 1.0) > 350.0);
    // CoDel: the standing queue stays within a factor of two of TARGET at
    // both buffer sizes, and its utilisation within 10 % of Tail Drop's.
    for x in [1.0, 8.0] {
        assert!(
            (2.5..=10.0).contains(&qd("codel", x)),
            "CoDel at {x} BDP: {}",
            qd("codel", x)
        );
        assert!(util("codel", x) > 0.9 * util("drop-tail", x));
    }
    // PIE: within a factor of two of its 15 ms reference.
    assert!((7.5..=30.0).contains(&qd("pie", 8.0)));
    // The ping's median at 8 BDP: FQ-CoDel (its own queue) < CoDel < PIE < Tail Drop.
    assert!(med("fq-codel", 8.0) < med("codel", 8.0));
    assert!(med("codel", 8.0) < med("pie", 8.0));
    assert!(med("pie", 8.0) < med("drop-tail", 8.0));
    // FQ-CoDel: the ping sees the bare 100 ms path within a few ms.
    assert!(med("fq-codel", 8.0) < 103.0);
}

// ---------------------------------------------------------------------------
// Lab 13: BBR against CUBIC.

/// Cao et al. (2019): BBR does better in shallow buffers, CUBIC in deep
/// ones. Ware et al. (2019): in deep buffers BBR gets at most about half.
#[test]
fn lab13_bbr_wins_shallow_buffers_and_cubic_deep_ones() {
    let l = lab("bbr-vs-cubic").unwrap();
    header(l);
    let xs = [0.5, 2.0, 8.0, 32.0];
    let rs = run_jobs(l, &grid(&["bbr-cubic"], &xs, &[1]), |_| {});
    let bbr = |x: f64| {
        mean(&rs, "bbr-cubic", Some(x), |r| {
            r.group_share.as_ref().unwrap()[0]
        })
    };
    for x in xs {
        say!(l, "buffer {x} BDP: BBR's share {:.3} (paper: more than CUBIC in shallow buffers, at most about 1/2 in deep ones)", bbr(x));
    }
    assert!(bbr(0.5) > 0.5, "BBR does not win the shallow buffer");
    assert!(
        bbr(8.0) <= 0.5 && bbr(32.0) <= 0.5,
        "BBR takes more than half of a deep buffer"
    );
    assert!(bbr(0.5) > bbr(32.0));
}

// ---------------------------------------------------------------------------
// Lab 14: DCTCP against K.

/// Alizadeh et al. (2010) §4.1: at 1 Gb/s with two long-lived flows DCTCP
/// (K = 20) keeps the queue around 20 packets where TCP's is ten times
/// larger, at the same throughput, and performance does not depend on K
/// down to K = 5.
#[test]
fn lab14_dctcp_keeps_a_small_queue_at_full_rate() {
    let l = lab("dctcp-threshold").unwrap();
    header(l);
    let rs = run_jobs(
        l,
        &grid(&["dctcp", "reno-drop-tail"], &[5.0, 20.0], &[1]),
        |_| {},
    );
    let q = |s: &str, x: f64| mean(&rs, s, Some(x), |r| r.mean_queue_pkts.unwrap());
    say!(l, "K = 20: mean queue DCTCP {:.1}, TCP {:.1} packets (paper: about 20, and ten times larger); throughput DCTCP {:.0}, TCP {:.0} Mb/s (paper: 950 both)",
        q("dctcp", 20.0), q("reno-drop-tail", 20.0), mean(&rs, "dctcp", Some(20.0), total), mean(&rs, "reno-drop-tail", Some(20.0), total));
    assert!((10.0..=40.0).contains(&q("dctcp", 20.0)));
    assert!(q("reno-drop-tail", 20.0) > 10.0 * q("dctcp", 20.0) * 0.9);
    for x in [5.0, 20.0] {
        let d = mean(&rs, "dctcp", Some(x), total);
        let t = mean(&rs, "reno-drop-tail", Some(x), total);
        assert!(d > 0.95 * t, "K = {x}: DCTCP {d} against TCP {t}");
    }
}

// ---------------------------------------------------------------------------
// Lab 15: RTT fairness across algorithms.

/// Ha, Rhee & Xu (2008), abstract: CUBIC's RTT-independent window growth
/// shares more equitably among flows of different RTTs than the
/// standards' linear growth. Hock et al. (2017): BBR flows of different
/// RTTs share unfairly (the direction was not read from the paper).
/// Asserted at an RTT ratio of 8, where the RTTs differ most: CUBIC's
/// Jain index above Reno's in both buffers, BBR's below 0.96.
#[test]
fn lab15_cubic_shares_more_evenly_than_reno_and_bbr_unevenly() {
    let l = lab("two-rtts").unwrap();
    header(l);
    let series = [
        "reno-shallow",
        "cubic-shallow",
        "bbr-shallow",
        "reno-deep",
        "cubic-deep",
        "bbr-deep",
    ];
    let rs = run_jobs(l, &grid(&series, &[8.0], &[1]), |_| {});
    let jain = |s: &str| mean(&rs, s, Some(8.0), |r| r.jain_index);
    let short = |s: &str| mean(&rs, s, Some(8.0), |r| r.group_share.as_ref().unwrap()[0]);
    for s in series {
        say!(l, "RTT ratio 8, {s}: short flow's share {:.3}, Jain's index {:.3} (paper: CUBIC fairer than Reno; BBR unfair)", short(s), jain(s));
    }
    for depth in ["shallow", "deep"] {
        let (reno, cubic, bbr) = (
            format!("reno-{depth}"),
            format!("cubic-{depth}"),
            format!("bbr-{depth}"),
        );
        assert!(
            jain(&cubic) > jain(&reno),
            "{depth}: CUBIC not fairer than Reno"
        );
        assert!(
            short(&reno) > 0.5,
            "{depth}: Reno's short flow does not win"
        );
        assert!(jain(&bbr) < 0.96, "{depth}: BBR shares evenly");
    }
}

// ---------------------------------------------------------------------------
// Lab 16: L4S, TCP Prague and CUBIC through DualPI2 against one PIE queue.

/// De Schepper et al. (2022): the L4S queue's delay stays low (median
/// 100–300 µs, 99th percentile below 2 ms). The DualQ draft (2019): the
/// coupling gives Scalable and Classic flows about the same rate, while a
/// queue they share leaves Classic TCP a small capacity share. RFC 8033:
/// PIE steers the delay towards 15 ms.
#[test]
fn lab16_dualpi2_separates_the_delays_and_one_pie_queue_does_not() {
    let l = lab("l4s-dualpi2").unwrap();
    header(l);
    let rs = run_jobs(l, &grid(&["dualpi2", "pie-ecn"], &[20.0], &[1]), |_| {});
    let delay = |s: &str, g: usize| {
        mean(&rs, s, None, |r| {
            r.group_queue_delay_ms.as_ref().unwrap()[g].unwrap()
        })
    };
    let cubic_share = |s: &str| mean(&rs, s, None, |r| r.group_share.as_ref().unwrap()[1]);
    for s in ["dualpi2", "pie-ecn"] {
        say!(
            l,
            "{s} at 20 ms: Prague waits {:.2} ms, CUBIC {:.2} ms; CUBIC's share {:.3}",
            delay(s, 0),
            delay(s, 1),
            cubic_share(s)
        );
    }
    // DualPI2: Prague's packets wait under the 1 ms step, CUBIC's near the
    // classic queue's 15 ms target (within a factor of three).
    assert!(delay("dualpi2", 0) < 1.0);
    assert!((5.0..=30.0).contains(&delay("dualpi2", 1)));
    // One PIE queue: a single FIFO, so both flows' packets wait alike
    // (within 10 %), near PIE's 15 ms reference.
    let (p, c) = (delay("pie-ecn", 0), delay("pie-ecn", 1));
    assert!((p / c - 1.0).abs() < 0.1, "Prague {p} ms, CUBIC {c} ms");
    assert!((5.0..=30.0).contains(&c));
    // CUBIC keeps more of the link through DualPI2 than in the shared queue.
    assert!(cubic_share("dualpi2") > cubic_share("pie-ecn"));
}

// ---------------------------------------------------------------------------
// Lab 17: a cellular-like link, CUBIC, BBR and TCP Prague through drop-tail
// and CoDel.

/// Winstein et al. (2013): current protocols build multi-second queues in
/// cellular gateways. Li et al. (2018): BBR moves about as much as CUBIC
/// with far lower self-inflicted delay. Nichols & Jacobson (2012): CoDel
/// adapts to a changing rate. Zhang et al. (2016): AQM on a link whose rate
/// swings cuts the latency and the throughput.
#[test]
fn lab17_deep_buffers_bloat_cubic_not_bbr_and_codel_trades_throughput_for_delay() {
    let l = lab("cellular-trace").unwrap();
    header(l);
    let series = ["cubic-drop-tail", "cubic-codel", "bbr-drop-tail"];
    let rs = run_jobs(l, &grid(&series, &[3000.0], &[1]), |_| {});
    let delay = |s: &str| {
        mean(&rs, s, None, |r| {
            r.group_queue_delay_ms.as_ref().unwrap()[0].unwrap()
        })
    };
    let mbps = |s: &str| mean(&rs, s, None, |r| r.group_throughput_mbps[0]);
    for s in series {
        say!(
            l,
            "{s} at 3000 packets: {:.2} Mb/s, packets wait {:.1} ms",
            mbps(s),
            delay(s)
        );
    }
    // CUBIC fills the deep buffer: seconds at the trace's 7.3 Mb/s.
    assert!(delay("cubic-drop-tail") > 1000.0);
    // BBR: within 20 % of CUBIC's throughput (paper.json's reading of
    // "similar"), its packets waiting a small fraction of CUBIC's time.
    assert!((mbps("bbr-drop-tail") / mbps("cubic-drop-tail") - 1.0).abs() < 0.2);
    assert!(delay("bbr-drop-tail") * 3.0 < delay("cubic-drop-tail"));
    // CoDel: near its 5-ms target plus the outages' backlog, well under
    // drop-tail's delay, and less throughput.
    assert!(delay("cubic-codel") < 100.0);
    assert!(mbps("cubic-codel") < mbps("cubic-drop-tail"));
}

// ---------------------------------------------------------------------------
// Lab 18: BBRv3 against CUBIC, beside BBRv1.

/// BBRv3's loss bounds (google's v3 `tcp_bbr.c`) make it give way to CUBIC
/// in a shallow buffer, where BBRv1, ignoring loss, takes most of the link
/// (the draft's "substantially higher throughput for shallow buffers" is
/// BBRv1's behaviour here, not BBRv3's: a known gap, checked as such).
#[test]
fn known_gap_lab18_bbr3_does_not_take_the_shallow_buffer_from_cubic() {
    let l = lab("bbr3-vs-cubic").unwrap();
    header(l);
    let rs = run_jobs(
        l,
        &grid(&["bbr3-cubic", "bbr-cubic"], &[0.5], &[1, 2]),
        |_| {},
    );
    let share = |s: &str| mean(&rs, s, None, |r| r.group_share.as_ref().unwrap()[0]);
    say!(
        l,
        "at 0.5 BDP: BBRv3 {:.3}, BBRv1 {:.3}",
        share("bbr3-cubic"),
        share("bbr-cubic")
    );
    // BBRv1 takes most of the link.
    assert!(share("bbr-cubic") > 0.7);
    // draft-ietf-ccwg-bbr: BBR(v3) gets substantially more than CUBIC in a
    // shallow buffer (read as at least 60 %). Not in the model: flip this
    // when it holds.
    assert!(
        share("bbr3-cubic") < 0.6,
        "the gap closed: BBRv3 now takes {}",
        share("bbr3-cubic")
    );
}
