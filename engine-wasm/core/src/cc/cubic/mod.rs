//! CUBIC (RFC 9438, Xu, Ha, Rhee, Goel, Eggert 2023): the catalogue entry
//! and the profile switch `cubic` choosing one of two models.
//!
//! * [`linux6::CubicLinux`] (`CubicVersion::Linux6`, the `linux-6`
//!   profile): the current Linux `net/ipv4/tcp_cubic.c` (v2.3) rule for
//!   rule, in its integer arithmetic (β = 717/1024, `bic_scale` 41, K in
//!   1/1024 s, W_est advanced per (cwnd·15)>>3 ACKed packets), HyStart with
//!   the current kernel's rules, the epoch shifted over idle time.
//! * [`rfc9438::Cubic`] (`CubicVersion::Rfc9438` — `sawtooth-1`, `ns-2`,
//!   `nist` — and `CubicVersion::Linux2622`): the engine's CUBIC before
//!   the `linux-6` audit, in floating point with Linux's structure and
//!   HyStart as older kernels ran it, and the CUBIC 2.1 of Linux 2.6.22.
//!   Kept so that scenarios and links of those profiles keep their results.
//!
//! Both take the slow start of the `hystart` parameter: 0 standard, 1
//! HyStart (Linux's default), 2 HyStart++ (RFC 9406, `cc/hystart_pp.rs`).
//!
//! Where Linux and RFC 9438 differ, `linux-6` follows Linux; each
//! difference is written at the rule in `linux6.rs`.

use super::hystart::SlowStartMode;
use super::{AlgorithmInfo, Citation, CongestionControl, ParamInfo, Params};
use crate::variants::enum_with_variants;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub mod linux6;
pub mod rfc9438;

pub use linux6::CubicLinux;
pub use rfc9438::Cubic;

enum_with_variants! {
    /// Which generation of CUBIC's and BIC's rules: the kernel-dependent rule a
    /// profile chooses (`Mechanisms::cubic`, switch `cubic`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    #[ts(export, export_to = "scenario.ts")]
    pub enum CubicVersion {
        /// RFC 9438 (β = 0.7 by default) in the engine's floating-point model
        /// with Linux's structure and the HyStart of older kernels: the CUBIC
        /// of the profiles before `linux-6` followed `tcp_cubic.c` exactly.
        Rfc9438,
        /// Linux 2.6.22's `tcp_cubic.c` 2.1 and `tcp_bic.c`: β = 819/1024,
        /// window steps scaled by the measured packets per ACK, no HyStart.
        Linux2622,
        /// The current Linux `tcp_cubic.c` (v2.3) rule for rule, in its integer
        /// arithmetic, with HyStart as current kernels run it. BIC as for
        /// `Rfc9438`.
        Linux6,
    }
}

impl CubicVersion {
    /// The version in words (the ablation view and docs/profiles.md).
    pub fn describe(self) -> &'static str {
        match self {
            CubicVersion::Rfc9438 => "RFC 9438",
            CubicVersion::Linux2622 => "Linux 2.6.22",
            CubicVersion::Linux6 => "Linux 6 tcp_cubic.c",
        }
    }

    /// The parameters this version sets where a flow gives none: CUBIC
    /// 2.1's defaults in Linux 2.6.22 (`tcp_cubic.c`): beta 819/1024, no
    /// HyStart (added in 2.6.29).
    fn defaults(self) -> &'static [(&'static str, f64)] {
        match self {
            CubicVersion::Linux2622 => &[("beta", 0.8), ("hystart", 0.0)],
            CubicVersion::Rfc9438 | CubicVersion::Linux6 => &[],
        }
    }
}

pub static INFO: AlgorithmInfo = AlgorithmInfo {
    id: "cubic",
    name: "CUBIC",
    explanation: "CUBIC grows the window as a cubic function of the time since the last loss, not of the number of ACKs, so flows with different RTTs grow alike. After a loss (window cut to β = 0.7) the window first rises quickly, then flattens out as it approaches W_max — the window where the loss happened — lingers there, and then accelerates again to probe for more bandwidth. On short-RTT or small-BDP paths, where a Standard TCP would grow faster, it follows a Reno-like line instead (the TCP-friendly region). It is the default in Linux, Windows and macOS.",
    expect_on_chart: "Each tooth is an S-shaped curve: a concave rise flattening into a plateau at the previous peak, then a convex climb — teeth equally long in seconds regardless of the RTT. On short RTTs the rise is a straight Reno-like line.",
    increase_tex: r"W(t) = C\,(t - K)^3 + W_{\max},\quad K = \sqrt[3]{\frac{W_{\max}(1-\beta)}{C}}",
    decrease_tex: r"W_{\max} \leftarrow w\ \left(\text{or } w\,\tfrac{1+\beta}{2}\right),\quad w \leftarrow \beta\,w",
    params: &[
        ParamInfo { id: "c", name: "C (scaling)", default: 0.4, min: 0.01, max: 4.0, step: 0.01, unit: "packets/s³", log_scale: true, description: "How fast the cubic curve moves away from W_max (RFC 9438: 0.4; Linux bic_scale 41 = 0.4004)." },
        ParamInfo { id: "beta", name: "β (window kept on loss)", default: 0.7, min: 0.5, max: 0.95, step: 0.01, unit: "fraction", log_scale: false, description: "Window multiplied by β on a loss (RFC 9438: 0.7; Linux 717/1024; kernels before 2.6.25 used 0.8)." },
        ParamInfo { id: "fast_convergence", name: "Fast convergence", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Release bandwidth faster: a loss below the previous W_max remembers (1 + β)/2 of the window." },
        ParamInfo { id: "tcp_friendliness", name: "TCP-friendly region", default: 1.0, min: 0.0, max: 1.0, step: 1.0, unit: "on/off", log_scale: false, description: "Never grow slower than a Reno flow with the same β would." },
        ParamInfo { id: "hystart", name: "Slow start: 0 standard, 1 HyStart, 2 HyStart++", default: 1.0, min: 0.0, max: 2.0, step: 1.0, unit: "", log_scale: false, description: "How slow start ends before the first loss. 0: standard slow start (RFC 5681). 1: HyStart (Ha & Rhee 2011), Linux's default: leave slow start when the ACKs of a round arrive as one long train or the round's RTT rises. 2: HyStart++ (RFC 9406): on a rise of the round's minimum RTT, grow a quarter as fast for 5 rounds (Conservative Slow Start), back to slow start if the RTT falls again." },
    ],
    citations: &[
        Citation { label: "RFC 9438", reference: "L. Xu, S. Ha, I. Rhee, V. Goel, L. Eggert. CUBIC for Fast and Long-Distance Networks. RFC 9438, 2023, §4." },
        Citation { label: "Ha, Rhee, Xu 2008", reference: "S. Ha, I. Rhee, L. Xu. CUBIC: A New TCP-Friendly High-Speed TCP Variant. ACM SIGOPS OSR 42(5), 2008." },
        Citation { label: "Ha, Rhee 2011", reference: "S. Ha, I. Rhee. Taming the elephants: New TCP slow start (HyStart). Computer Networks 55(9), 2011." },
        Citation { label: "RFC 9406", reference: "P. Balasubramanian, Y. Huang, M. Olson. HyStart++: Modified Slow Start for TCP. RFC 9406, 2023, §4." },
        Citation { label: "Linux tcp_cubic.c", reference: "S. Ha, S. Hemminger. Linux net/ipv4/tcp_cubic.c v2.3 (bic_scale 41 ≈ C 0.4, beta 717/1024 ≈ 0.7, HyStart)." },
        Citation { label: "Bateman et al. 2008", reference: "A Comparison of TCP Behaviour at High Speeds Using ns-2 and Linux, Appendix A: Cubic TCP." },
    ],
};

pub fn build(p: &Params) -> Box<dyn CongestionControl> {
    let version = p.rules.cubic;
    let p = &p.with_defaults(version.defaults());
    let slow_start = SlowStartMode::from_param(p.get("hystart"));
    let fast_convergence = p.get("fast_convergence") >= 0.5;
    let tcp_friendliness = p.get("tcp_friendliness") >= 0.5;
    match version {
        CubicVersion::Linux6 => Box::new(CubicLinux::new(
            p.get("c"),
            p.get("beta"),
            fast_convergence,
            tcp_friendliness,
            slow_start,
        )),
        version => {
            let mut cubic = Cubic::new(
                p.get("c"),
                p.get("beta"),
                fast_convergence,
                tcp_friendliness,
                slow_start,
            );
            cubic.linux_2622 = version == CubicVersion::Linux2622;
            Box::new(cubic)
        }
    }
}

/// K = ∛(W_max·(1 − β)/C), in seconds (RFC 9438 Figure 2 right after a
/// loss, where cwnd_epoch = β·W_max).
pub fn cubic_k(w_max: f64, beta: f64, c: f64) -> f64 {
    (w_max * (1.0 - beta) / c).cbrt()
}

/// W_cubic(t) = C·(t − K)³ + W_max (RFC 9438 Figure 1).
pub fn cubic_window(t_s: f64, k_s: f64, w_max: f64, c: f64) -> f64 {
    c * (t_s - k_s).powi(3) + w_max
}

/// The closed forms of RFC 9438 §4, held by both models.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{grow_from, loss_event};

    use crate::cc::testing::avoidance_window as window;

    fn both() -> [(&'static str, Box<dyn CcProbe>); 2] {
        [
            ("rfc9438", Box::new(Cubic::rfc9438())),
            ("linux6", Box::new(CubicLinux::linux_defaults())),
        ]
    }

    /// What the tests read from either model.
    trait CcProbe: CongestionControl {
        fn k_s(&self) -> f64;
        fn w_max(&self) -> f64;
        fn set_delay_min_ns(&mut self, ns: u64);
    }

    impl CcProbe for Cubic {
        fn k_s(&self) -> f64 {
            Cubic::k_s(self)
        }
        fn w_max(&self) -> f64 {
            Cubic::w_max(self)
        }
        fn set_delay_min_ns(&mut self, ns: u64) {
            self.delay_min_ns = ns;
        }
    }

    impl CcProbe for CubicLinux {
        fn k_s(&self) -> f64 {
            CubicLinux::k_s(self)
        }
        fn w_max(&self) -> f64 {
            CubicLinux::w_max(self) as f64
        }
        fn set_delay_min_ns(&mut self, ns: u64) {
            self.delay_min_us = (ns / 1000) as u32;
        }
    }

    /// RFC 9438 §4.2, Figure 2: "K = cubic_root((W_max − cwnd_epoch)/C)";
    /// right after a loss at W_max = 1000 (cwnd_epoch = 700) K = ∛750 s.
    /// Linux's constants (β 717/1024, C 410/1024) move it by under 0.1 %.
    #[test]
    fn k_is_the_cube_root_of_wmax_times_one_minus_beta_over_c() {
        let k = cubic_k(1000.0, 0.7, 0.4);
        assert!((k - 750f64.cbrt()).abs() < 1e-12);
        for (name, mut cc) in both() {
            let mut w = window(1000);
            loss_event(cc.as_mut(), &mut w, 0);
            assert_eq!(w.cwnd_pkts, 700, "{name}: β·W_max");
            grow_from(cc.as_mut(), &mut w, 1, 100_000_000, 0);
            assert!(
                (cc.k_s() - k).abs() / k < 1e-3,
                "{name}: K {} vs {k}",
                cc.k_s()
            );
        }
    }

    /// RFC 9438 Figure 1 at t = K: "W_cubic(K) = W_max" — the plateau.
    /// Driven on a 100 ms path from a loss at W_max = 2000, each model's
    /// window is W_max (±1 %) when t reaches K − RTT (both aim one RTT
    /// ahead), and well below it 5 s earlier.
    #[test]
    fn the_window_reaches_wmax_at_t_equals_k() {
        assert_eq!(cubic_window(5.0, 5.0, 2000.0, 0.4), 2000.0);
        let rtt = 100_000_000u64;
        for (name, mut cc) in both() {
            cc.set_delay_min_ns(rtt);
            let mut w = window(2000);
            loss_event(cc.as_mut(), &mut w, 0);
            let k = cubic_k(2000.0, 0.7, 0.4);
            let rounds_to_k = ((k - 0.1) / 0.1).floor() as u32;
            let now = grow_from(cc.as_mut(), &mut w, rounds_to_k - 50, rtt, 0);
            assert!(w.cwnd_pkts < 1990, "{name}: 5 s before K: {}", w.cwnd_pkts);
            grow_from(cc.as_mut(), &mut w, 50, rtt, now);
            let err = (w.cwnd_pkts as f64 - 2000.0).abs() / 2000.0;
            assert!(err < 0.01, "{name}: at t = K: {}", w.cwnd_pkts);
        }
    }

    /// RFC 9438 §4.3, Figure 4: "W_est = W_est + α_cubic ·
    /// segments_acked / cwnd", α_cubic = 3(1 − β)/(1 + β) ≈ 0.529: after
    /// ten windows of ACKs at a fixed window W_est has grown by 10·α
    /// (Linux: 8/15 per window, 10·0.533), not by 10 as Reno would.
    #[test]
    fn reno_friendly_estimate_grows_alpha_per_window_of_acks() {
        let alpha: f64 = 3.0 * (1.0 - 0.7) / (1.0 + 0.7);
        let cwnd = 1000u32;
        let mut rfc = Cubic::rfc9438();
        let mut linux = CubicLinux::linux_defaults();
        rfc.test_update(cwnd, 1, 0);
        linux.test_update(cwnd, 1, 0);
        // 40 ms apart: Linux refreshes its state at most every 1/32 s
        // while cwnd holds (`HZ / 32`).
        for i in 1..10 * cwnd {
            rfc.test_update(cwnd, 1, i as u64 * 40_000_000);
            linux.test_update(cwnd, 1, i as u64 * 40_000_000);
        }
        let grown = rfc.w_est() - cwnd as f64;
        assert_eq!(grown, (10.0 * alpha).floor(), "rfc9438 W_est");
        let grown = linux.w_est() - cwnd;
        assert_eq!(grown as f64, (10.0 * 8.0 / 15.0f64).floor(), "linux6 W_est");
    }

    /// RFC 9438 §4.2: "target = 1.5·cwnd if W_cubic(t + RTT) > 1.5·cwnd":
    /// far below W_max (after a timeout, say), one round of ACKs grows the
    /// window at most by half.
    #[test]
    fn one_round_grows_the_window_by_at_most_half() {
        let rtt = 100_000_000u64;
        for (name, mut cc) in both() {
            cc.set_delay_min_ns(rtt);
            let mut w = window(10_000);
            loss_event(cc.as_mut(), &mut w, 0);
            // An epoch long past: the curve is far above 1.5·cwnd.
            w.cwnd_pkts = 100;
            w.ssthresh_pkts = 50;
            let now = grow_from(cc.as_mut(), &mut w, 1, rtt, 0);
            let start = w.cwnd_pkts;
            grow_from(cc.as_mut(), &mut w, 1, rtt, now + 30_000_000_000);
            assert!(
                w.cwnd_pkts as f64 <= 1.5 * start as f64 + 1.0,
                "{name}: {start} → {}",
                w.cwnd_pkts
            );
            assert!(
                w.cwnd_pkts as f64 >= 1.45 * start as f64,
                "{name}: the clamp binds"
            );
        }
    }

    /// RFC 9438 §4.6 and §4.7: ssthresh = β·cwnd; a loss below the last
    /// W_max remembers W_max = cwnd·(1 + β)/2.
    #[test]
    fn decrease_and_fast_convergence() {
        for (name, mut cc) in both() {
            let mut w = window(1000);
            loss_event(cc.as_mut(), &mut w, 0);
            assert_eq!(cc.w_max(), 1000.0, "{name}");
            let mut w = window(900);
            loss_event(cc.as_mut(), &mut w, 0);
            assert!((cc.w_max() - 765.0).abs() <= 1.0, "{name}: {}", cc.w_max());
            assert_eq!(w.cwnd_pkts, 630, "{name}");
        }
    }
}
