//! What each switch is and where each profile's value comes from: the
//! citations rendered into docs/profiles.md and shown in the app.

use super::SwitchId;
use serde::Serialize;
use ts_rs::TS;

/// What a switch is and where each profile's value comes from.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export, export_to = "profiles.ts")]
pub struct SwitchInfo {
    pub id: SwitchId,
    pub name: &'static str,
    /// One line for the app.
    pub explanation: &'static str,
    /// (profile id, source of that profile's value).
    pub sources: &'static [(&'static str, &'static str)],
}

pub static SWITCHES: &[SwitchInfo] = &[
    SwitchInfo {
        id: SwitchId::CwndCounting,
        name: "Window growth counted",
        explanation: "Whether slow start and congestion avoidance count each acknowledged packet or each ACK: with delayed ACKs, per-ACK counting grows the window about half as fast per round trip.",
        sources: &[
            ("linux-2.4", "Per ACK. Linux 2.4 net/ipv4/tcp_input.c tcp_cong_avoid: cwnd + 1 per ACK in slow start, snd_cwnd_cnt + 1 per ACK in congestion avoidance, called once per ACK that acks data; no byte counting in 2.4 (read in 2.4.22, nslu2/linux-2.4.x @171ea0e; unchanged since 2.4.17)."),
            ("linux-2.4-ixgb", "Per ACK, as linux-2.4: the follow-up's tests name Linux 2.4.19 kernels (\"a 2.4.19 kernel with High-Speed TCP patch\")."),
            ("linux-2.6.22", "Per ACK for Reno, HighSpeed and Scalable: 2.6.22 net/ipv4/tcp_cong.c, sysctl_tcp_abc = 0, tcp_slow_start + 1 per ACK, snd_cwnd_cnt++ per ACK. BIC and CUBIC scale their step by the measured packets per ACK (delayed_ack) and H-TCP adds pkts_acked, so their congestion avoidance counts packets."),
            ("ns-2", "Per ACK. ns-2 tcp/tcp.cc TcpAgent::opencwnd: cwnd + 1 (slow start) or + 1/cwnd per new ACK."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (per packet, RFC 3465/5681)."),
            ("linux-6", "Per packet: tcp_slow_start and tcp_cong_avoid_ai take the acked count (Linux ≥ 3.x net/ipv4/tcp_cong.c)."),
            ("sawtooth-1", "Per packet (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Highspeed,
        name: "HighSpeed a(w), b(w)",
        explanation: "RFC 3649's continuous formulas, or its Appendix B table looked up as the kernels did (a rounded up to the next row, the row found only in congestion avoidance, so the first decrease after slow start halves).",
        sources: &[
            ("linux-2.4", "Table. The 2.4.19-hstcp patch was not found; Long's (Sandia, 2003) own Fig. 3 text (w = 262 → a(w) = 4, above 347 → 5) is the table lookup, as in Linux net/ipv4/tcp_highspeed.c (hstcp_aimd_vals)."),
            ("linux-2.4-ixgb", "Table, as linux-2.4 (Linux 2.4.19-hstcp named by the follow-up's tests)."),
            ("linux-2.6.22", "Table: 2.6.22 net/ipv4/tcp_highspeed.c (hstcp_aimd_vals, ai moved in cong_avoid, ssthresh = cwnd − cwnd·md>>8)."),
            ("ns-2", "Formula: ns-2 tcp/tcp.cc increase_param/decrease_param compute a(w), b(w) from low_window_, high_window_, high_p_, high_decrease_."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (RFC 3649 formulas)."),
            ("linux-6", "Table: net/ipv4/tcp_highspeed.c (unchanged table; Linux 6 counts its increase per ACK, modelled here per packet)."),
            ("sawtooth-1", "Formula (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Scalable,
        name: "Scalable at small windows",
        explanation: "Kelly's legacy window (Standard TCP, halving, at or below it) or Linux's rule (one packet per min(cwnd, 1/a) ACKs, always decrease by b).",
        sources: &[
            ("linux-2.4", "Linux rule. The scale0.5.1 patch for 2.4.19 was not found; Long (Sandia, 2003) states a = 1/50, b = 1/8, which are Linux tcp_scalable.c's TCP_SCALABLE_AI_CNT 50 and TCP_SCALABLE_MD_SCALE 3 (Kelly's own port)."),
            ("linux-2.4-ixgb", "Linux rule, as linux-2.4 (2.4.19 scale0.5.1, a = 1/50, b = 1/8)."),
            ("linux-2.6.22", "Linux rule: 2.6.22 net/ipv4/tcp_scalable.c (cnt > min(cwnd, 50) → cwnd + 1; ssthresh = max(cwnd − cwnd>>3, 2))."),
            ("ns-2", "The HighSpeed TCP ns-2 study runs no Scalable TCP; the plain default (Kelly 2003)."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (Kelly 2003)."),
            ("linux-6", "Linux rule: net/ipv4/tcp_scalable.c."),
            ("sawtooth-1", "Kelly's legacy window of 16 (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Rto,
        name: "Retransmission timeout",
        explanation: "RFC 6298's max(srtt + 4·rttvar, 200 ms), or Linux's estimator, which keeps the RTO at least 200 ms above srtt; and the RTO before the first RTT sample.",
        sources: &[
            ("linux-2.4", "Linux estimator, initial 3 s: 2.4 net/ipv4/tcp_input.c tcp_rtt_estimator and tcp_set_rto (rto = srtt + rttvar, mdev_max reset to TCP_RTO_MIN each RTT); include/net/tcp.h TCP_TIMEOUT_INIT = 3·HZ, TCP_RTO_MIN = HZ/5."),
            ("linux-2.4-ixgb", "Linux estimator, initial 3 s, as linux-2.4 (a 2.4 kernel)."),
            ("linux-2.6.22", "Linux estimator, initial 3 s: 2.6.22 tcp_input.c tcp_rtt_estimator, include/net/tcp.h TCP_TIMEOUT_INIT 3·HZ."),
            ("ns-2", "RFC 6298-style srtt + 4·rttvar with minrto_ 0.2 s and rtxcur_init_ 3 s (ns-2.35 tcl/lib/ns-default.tcl)."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (RFC 6298, 1 s)."),
            ("linux-6", "Linux estimator; initial 1 s (TCP_TIMEOUT_INIT since Linux 3.1, RFC 6298 §2.1)."),
            ("sawtooth-1", "RFC 6298 with a 200 ms floor, initial 1 s (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::RtoRestart,
        name: "Retransmission timer restart",
        explanation: "When the retransmission timer starts again. RFC 6298 restarts it only when an ACK acknowledges new data, so a segment resent late in a recovery has only what is left of the RTO armed at the last such ACK; Linux also restarts it whenever it resends the first unacknowledged segment, giving that retransmission a full RTO.",
        sources: &[
            ("linux-2.4", "Also on a resent head: Linux 2.4 net/ipv4/tcp_output.c tcp_xmit_retransmit_queue, \"if (skb == skb_peek(&sk->write_queue)) tcp_reset_xmit_timer(sk, TCP_TIME_RETRANS, tp->rto)\" (tp->rto, already backed off by tcp_retransmit_timer)."),
            ("linux-2.4-ixgb", "As linux-2.4: also on a resent head (2.4 tcp_xmit_retransmit_queue)."),
            ("linux-2.6.22", "Also on a resent head: 2.6.22 net/ipv4/tcp_output.c tcp_xmit_retransmit_queue, \"if (skb == tcp_write_queue_head(sk)) inet_csk_reset_xmit_timer(sk, ICSK_TIME_RETRANS, inet_csk(sk)->icsk_rto, TCP_RTO_MAX)\"."),
            ("ns-2", "On an ACK of new data: the plain default (RFC 6298 §5.3); ns-2's agents were not read for this rule."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (RFC 6298 §5.3)."),
            ("linux-6", "Also on a resent head: net/ipv4/tcp_output.c tcp_xmit_retransmit_queue (6.x, read in a 6.6.14 tree and in the 2020 patch that collected the restart into rearm_timer): \"if (skb == rtx_head && icsk->icsk_pending != ICSK_TIME_REO_TIMEOUT) rearm_timer = true; … tcp_reset_xmit_timer(sk, ICSK_TIME_RETRANS, inet_csk(sk)->icsk_rto, TCP_RTO_MAX)\" — the current (backed-off) RTO from the retransmission. RACK's reordering timer, the exception, is not modelled."),
            ("sawtooth-1", "On an ACK of new data (RFC 6298 §5.3; the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Recovery,
        name: "Window reduction",
        explanation: "How cwnd comes down after a loss or a full interface queue: Linux's old rate halving (one packet per two ACKs, down to ssthresh/2), Proportional Rate Reduction, or RFC 6675's cwnd = ssthresh at once. PRR comes in RFC 6937's form (one segment more than delivered on every ACK below ssthresh) and in current Linux's (that extra segment only on an ACK that advances snd_una and finds no new loss).",
        sources: &[
            ("linux-2.4", "Rate halving in CWR and Recovery: 2.4 tcp_input.c tcp_cwnd_down (decrement while cwnd > ssthresh/2, clamp to in-flight + 1, called for every ACK in tcp_fastretrans_alert) and tcp_complete_cwr."),
            ("linux-2.4-ixgb", "Rate halving, as linux-2.4 (a 2.4 kernel)."),
            ("linux-2.6.22", "Rate halving: 2.6.22 tcp_input.c tcp_cwnd_down down to tcp_cwnd_min: ca_ops->min_cwnd if set, else ssthresh. Reno, HighSpeed and Scalable set tcp_reno_min_cwnd (ssthresh/2); CUBIC 2.1 and BIC set no min_cwnd, so they stop at ssthresh (read in galeksandrp-keenetic/linux-2.6.22-tc tcp_input.c and ns-2.35's copies of the 2.6.22.6 modules, hbatmit/ns2.35 tcp/linux/src)."),
            ("ns-2", "RFC 6675 style: ns-2's SACK agent (Sack1) halves cwnd on entering recovery and sends by its pipe estimate (Fall & Floyd 1996)."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (PRR, RFC 6937)."),
            ("linux-6", "PRR as Linux 6 runs it (net/ipv4/tcp_input.c tcp_cwnd_reduction, read in a 6.10-or-later tree: it includes net/proto_memory.h): above ssthresh RFC 6937's proportional part; below it packet conservation, max(prr_delivered − prr_out, newly_acked_sacked), plus one segment only when the ACK advances snd_una and marks nothing newly lost (`flag & FLAG_SND_UNA_ADVANCED && !newly_lost`; some 4.x kernels tested FLAG_RETRANS_DATA_ACKED && !FLAG_LOST_RETRANS instead, and the first PRR, 3.2's tcp_update_cwnd_in_recovery, added it on every ACK as RFC 6937's SSRB does). RFC 6937's RecoverFS (the flight size at entry) stands where Linux divides by prior_cwnd, the window at entry."),
            ("sawtooth-1", "PRR in Recovery, rate halving to ssthresh in CWR (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Cwr,
        name: "Back-off without loss",
        explanation: "When a full interface queue (local congestion) or an ECN echo makes the sender back off (CWR), ssthresh is the algorithm's own decrease, or half the window whatever the algorithm, as Linux 2.4 did.",
        sources: &[
            ("linux-2.4", "Halving: Linux 2.4.20 include/net/tcp.h __tcp_enter_cwr sets ssthresh = tcp_recalc_ssthresh(tp) = max(cwnd >> 1, 2), called from tcp_enter_cwr on a refused transmit (tcp_transmit_skb, NET_XMIT_CN) and on an ECN echo. The 2.4.19 HighSpeed and Scalable patches were not found; Long (Sandia, 2003), text after Fig. 12: \"the outstanding data window after the decrease is equal for all three algorithms\", so they left this path halving."),
            ("linux-2.4-ixgb", "Halving, as linux-2.4 (2.4.19 kernels with the same patches)."),
            ("linux-2.6.22", "The algorithm's decrease: 2.6.22 tcp_input.c tcp_enter_cwr sets ssthresh = icsk_ca_ops->ssthresh(sk) (pluggable congestion control, Linux ≥ 2.6.13)."),
            ("ns-2", "The algorithm's decrease: ns-2's agents have no interface-queue back-off, and an ECN echo reduces by the agent's own rule (tcp.cc slowdown)."),
            ("nist", "Not described in Mills et al. (NIST); the plain default (the algorithm's decrease)."),
            ("linux-6", "The algorithm's decrease: tcp_input.c tcp_enter_cwr → tcp_init_cwnd_reduction, ssthresh = icsk_ca_ops->ssthresh(sk)."),
            ("sawtooth-1", "The algorithm's decrease (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::LostRetransmit,
        name: "Lost retransmission detection",
        explanation: "A retransmission can be lost too. Without a rule for it the sender waits for the retransmission timeout; Linux marks a retransmission lost once the receiver reports (by SACK) data that was sent after it, and sends it again at once.",
        sources: &[
            ("linux-2.4", "In Recovery: 2.4 net/ipv4/tcp_input.c tcp_sacktag_write_queue (read in 2.4.22, nslu2/linux-2.4.x @171ea0e), \"event C\": tcp_retransmit_skb stores snd_nxt in the segment's ack_seq, and when a SACK block ends after it while ca_state is TCP_CA_Recovery the segment loses SACKED_RETRANS and is marked LOST (with FACK on, the default, no reordering allowance). In Loss (after a timeout) no such rule: the timer again."),
            ("linux-2.4-ixgb", "In Recovery, as linux-2.4: the follow-up's tests name Linux 2.4.19 kernels."),
            ("linux-2.6.22", "In Recovery: 2.6.22's tcp_sacktag_write_queue keeps 2.4's event-C check (lost_retrans && icsk_ca_state == TCP_CA_Recovery); the stand-alone tcp_mark_lost_retrans came in 2.6.24."),
            ("ns-2", "Only by the timeout: ns-2's Sack1 agent has no lost-retransmission rule (its retransmissions are found lost by the timer)."),
            ("nist", "Only by the timeout: not described in Mills et al. (NIST); the plain default (RFC 6675 has no rule for it)."),
            ("linux-6", "RACK (RFC 8985; Linux net/ipv4/tcp_recovery.c, sysctl tcp_recovery = 1 by default): a segment is lost once one sent after it is delivered and the reordering window has passed; with no reordering seen the window is 0 in recovery (tcp_rack_reo_wnd), so a retransmission is lost as soon as later-sent data is SACKed, in Recovery and in Loss. RACK's time-based marking of first transmissions and its tail loss probe are not modelled."),
            ("sawtooth-1", "Only by the timeout (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::Cubic,
        name: "CUBIC and BIC version",
        explanation: "Current CUBIC as Linux's tcp_cubic.c runs it (RFC 9438 in Linux's integer arithmetic: β = 717/1024, C = 410/1024, HyStart); the engine's earlier floating-point CUBIC after RFC 9438 (β = 0.7, the HyStart of older kernels); or the CUBIC 2.1 of Linux 2.6.22 (β = 0.8, growth capped at 16 packets per 100 ms of RTT, no HyStart). Slow start is a per-flow parameter: standard, HyStart or HyStart++ (RFC 9406).",
        sources: &[
            ("linux-2.4", "Linux 2.4 had no CUBIC or BIC; the nearest era's rules (2.6.22) apply if one is chosen."),
            ("linux-2.4-ixgb", "As linux-2.4: no CUBIC or BIC in 2.4; the 2.6.22 rules if one is chosen."),
            ("linux-2.6.22", "CUBIC 2.1: 2.6.22 net/ipv4/tcp_cubic.c (beta 819/1024, bic_scale 41, max_increment 16, cnt = 50 before the first loss, delayed_ack scaling; HyStart came in 2.6.29). BIC: 2.6.22 tcp_bic.c (beta 819, max_increment 16, low_window 14) as the engine's BIC already models it."),
            ("ns-2", "The HighSpeed TCP ns-2 study runs no CUBIC; the plain default (RFC 9438)."),
            ("nist", "Mills et al. (NIST) runs BIC, not CUBIC; the plain default (RFC 9438)."),
            ("linux-6", "Linux 6 tcp_cubic.c: net/ipv4/tcp_cubic.c v2.3 (read in torvalds/linux and in two later 6.x trees with the January 2025 fix \"tcp_cubic: fix incorrect HyStart round start detection\"): beta 717/1024, bic_scale 41, K and the target in 1/1024 s integers, W_est + 1 per (cwnd·15)>>3 ACKed packets (no switch to α = 1: the 2024 netdev patch was not merged), cnt ≥ 2, 5 % per RTT before the first loss, the epoch shifted over idle time (CA_EVENT_TX_START), all state reset on a timeout. Slow start: HyStart (Ha & Rhee), the hystart parameter's default 1, because tcp_cubic.c implements HyStart — its ACK-train and delay detectors (HYSTART_ACK_TRAIN | HYSTART_DELAY, hystart_low_window 16, HYSTART_DELAY_MIN/MAX 4/16 ms, hystart_ack_delta_us 2000) — and has no HyStart++ (RFC 9406's Conservative Slow Start); a search of the indexed sources for HyStart++ (its name, CSS_GROWTH_DIVISOR, cssBaselineMinRtt) finds no Linux TCP code, only the proposed in-kernel QUIC stack (net/quic/cong.c, posted to netdev in 2025, not TCP). HyStart++ stays selectable per flow (hystart = 2)."),
            ("sawtooth-1", "RFC 9438 in the engine's floating-point model, HyStart as older kernels ran it (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::NicRing,
        name: "NIC transmit ring",
        explanation: "The network card driver's transmit ring behind the interface queue (txqueuelen), counted in packets or, as the driver does, in descriptors: a jumbo frame built from page fragments takes several, so the ring holds far fewer 9000-byte frames than 1500-byte ones.",
        sources: &[
            ("linux-2.4", "256 descriptors, each frame taking one per buffer: e1000 4.3.15-k1/4.4.19-k1 (lorenzo-stoakes/linux-historical @697ccd1, @13d344d) e1000_param.c DEFAULT_TXD 256; e1000_xmit_frame needs TXD_USE_COUNT per buffer (max_data_per_txd 16128, or 4096 for an 82544 on PCI-X: every 2.4 buffer fits either) plus a context descriptor only for CHECKSUM_HW, which 2.4.20's tcp_sendmsg never sets (it checksums while copying); E1000_DESC_UNUSED leaves one descriptor empty and the queue stops when a frame does not fit. 2.4.20 tcp.c select_size with NETIF_F_SG (set for 82543 and later) puts pgbreak = 3872 bytes (i686, 32-byte cache lines) of an 8948-byte segment in the linear part and the rest in page fragments from the socket's page: 3 or 4 descriptors (mean 3.24, about 78 frames in the ring); a 1448-byte segment is linear: 1 descriptor (255 frames). A P4-optimised build (128-byte lines) would move pgbreak to 3840, not verified which build the hosts ran."),
            ("linux-2.4-ixgb", "256 descriptors: ixgb 1.0.x ixgb_param.c DEFAULT_TXD 256; ixgb_xmit_frame stops the queue when IXGB_DESC_UNUSED < count and maps each buffer to one descriptor (max_data_per_txd = IXGB_MAX_JUMBO_FRAME_SIZE); with 2.4's write() segments (no CHECKSUM_HW) that is 1 per 1500-byte frame and 3–4 per 9000-byte frame, as for the e1000. The follow-up loads ixgb (\"insmod ixgb\" in its setup) but names no driver version; 1.0.47-k1 (2003) was read."),
            ("linux-2.6.22", "None: Bateman et al. (2008) does not name its NIC or driver; the plain default."),
            ("ns-2", "None: a simulator has no driver."),
            ("nist", "None: a simulator has no driver."),
            ("linux-6", "None: NICs and drivers vary; the plain default."),
            ("sawtooth-1", "None (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::TxCompletion,
        name: "Transmit completion",
        explanation: "When the driver gets back the ring's descriptors of frames already sent: at once, or only in the host's next network interrupt. Between interrupts the ring only drains, so TCP's bursts wait in the interface queue and can overflow it even when the NIC is not the bottleneck.",
        sources: &[
            ("linux-2.4", "65.5 µs: e1000 4.3.15-k1/4.4.19-k1 reclaim only in e1000_intr (e1000_clean_tx_irq, after the receive ring; no NAPI), every descriptor carries IDE and RS, and TADV = TIDV = 64 × 1.024 µs (e1000_param.c DEFAULT_TADV/DEFAULT_TIDV; TADV written for 82540 and later). A stopped queue wakes when more than E1000_TX_QUEUE_WAKE = 16 descriptors are free; the transmit softirq then refills the ring before the receive softirq hands ACKs to TCP (2.4 interrupt.h: NET_TX_SOFTIRQ before NET_RX_SOFTIRQ). Descriptors count as written back when the frame has left (RS with report_tx_early reports on fetch into the on-chip FIFO, about one frame earlier: not modelled)."),
            ("linux-2.4-ixgb", "26.2 µs: ixgb DEFAULT_TIDV 32 × 0.8192 µs with IntDelayEnable on (ixgb_param.c 1.0.47); ixgb's TIDV restarts at each write-back and has no absolute timer, modelled here as a delay from the first write-back (an earlier bound). Reclaim in the non-NAPI ixgb_intr (receive, then transmit), queue woken above IXGB_TX_QUEUE_WAKE 16."),
            ("linux-2.6.22", "At once: Bateman et al. (2008) does not name its NIC or driver; the plain default."),
            ("ns-2", "At once: a simulator has no driver."),
            ("nist", "At once: a simulator has no driver."),
            ("linux-6", "At once: NICs and drivers vary; the plain default."),
            ("sawtooth-1", "At once (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::InterruptModeration,
        name: "Interrupt moderation",
        explanation: "ACKs reach TCP only when the sender's network card interrupts: the first ACK after an interrupt waits this long and those behind it are processed in the same batch; the card also spaces its interrupts by a minimum interval (its throttle).",
        sources: &[
            ("linux-2.4", "131 µs, at most 8000 interrupts/s: e1000 RxAbsIntDelay (RADV) default 128 × 1.024 µs for 82540 and later chips (e1000_param.c, 4.3.15-k1); e1000_configure_rx hard-codes ITR = 10^9 / (8000 × 256) units of 256 ns = 124.9 µs (MAX_INTS_PER_SEC 8000) for 82540 and later. The chip of Long's (Sandia, 2003) PRO/1000 cards is not stated."),
            ("linux-2.4-ixgb", "59 µs, no throttle: ixgb DEFAULT_RDTR 72 × 0.8192 µs; ixgb has no ITR register setting. Its adaptive receive delay (RAIDC, about 100 µs) is not modelled."),
            ("linux-2.6.22", "Off: Bateman et al. (2008) does not name its NIC or driver; the plain default."),
            ("ns-2", "Off: a simulator has no interrupts."),
            ("nist", "Off: a simulator has no interrupts."),
            ("linux-6", "Off: NICs and drivers vary; the plain default."),
            ("sawtooth-1", "Off (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::ReceiverInterrupt,
        name: "Receiver interrupt moderation",
        explanation: "Data segments reach the receiving host's TCP, which acknowledges them, only when its network card interrupts: the first segment after an interrupt waits this long and those behind it are acknowledged in the same batch, so the ACKs leave in bursts; the card also spaces its interrupts by its throttle.",
        sources: &[
            ("linux-2.4", "131 µs, at most 8000 interrupts/s, as the sender's card: Long (Sandia, 2003) has PRO/1000 NICs in every host, so the receiver runs the same e1000 driver (4.3.15-k1 e1000_param.c, lorenzo-stoakes/linux-historical @697ccd1): RxIntDelay (RDTR) defaults to 128 × 1.024 µs for chips after the 82544 and restarts with each frame, RxAbsIntDelay (RADV) 128 × 1.024 µs runs from the first, so the interrupt comes 131 µs after the first waiting frame at any spacing; ITR 124.9 µs (MAX_INTS_PER_SEC 8000). The non-NAPI e1000_intr hands each frame to netif_rx and the receive softirq runs TCP over the batch in order; 2.4's __tcp_ack_snd_check acknowledges every second full-sized segment as it is processed. The throttle's phase is drawn from the seed. Not modelled: the receive ring's 80 descriptors (DEFAULT_RXD) overflowing, which 131 µs of 1 Gb/s (11 frames of 1500 bytes) never reaches."),
            ("linux-2.4-ixgb", "As linux-2.4: the follow-up's receiver is the 1 Gb/s PRO/1000 server of the first report (e1000), not the ixgb client."),
            ("linux-2.6.22", "Off: Bateman et al. (2008) does not name its NIC or driver; the plain default."),
            ("ns-2", "Off: a simulator has no interrupts."),
            ("nist", "Off: a simulator has no interrupts."),
            ("linux-6", "Off: NICs and drivers vary; the plain default."),
            ("sawtooth-1", "Off (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::TimerTick,
        name: "Timer tick (HZ)",
        explanation: "Kernel timers (retransmission, delayed ACK) expire only on the timer tick, and each host's ticks and interrupt throttle start at their own phase, drawn from the run's seed: unsynchronised clocks are why repeated runs differ. 'Exact' keeps every timer to the nanosecond.",
        sources: &[
            ("linux-2.4", "HZ = 100: 2.4 include/asm-i386/param.h (#define HZ 100). The phases of each host's tick and ITR are uniform over one period: the hosts' clocks are independent free-running oscillators and no source gives a relation between them."),
            ("linux-2.4-ixgb", "HZ = 100, as linux-2.4 (a 2.4 i386 kernel; the client's Opteron may have run an x86-64 build, whose 2.4 HZ is not verified)."),
            ("linux-2.6.22", "HZ = 250: kernel/Kconfig.hz default HZ_250 since 2.6.13 (the 2.6.22 file itself was not read); Bateman et al. (2008) states HZ = 1000 only for its netem router. Phases uniform per host."),
            ("ns-2", "Exact: ns-2's timers are event-driven (its TCP's tcp_tick_ granularity applies to RTT estimation, not modelled here)."),
            ("nist", "Exact: not described in Mills et al. (NIST)."),
            ("linux-6", "Exact: the plain default (high-resolution timers; TCP timers run from jiffies at HZ 250–1000)."),
            ("sawtooth-1", "Exact (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::ClockTolerance,
        name: "Clock tolerance",
        explanation: "Every Ethernet port sends from its own crystal, which the standard lets run up to 100 ppm fast or slow. Each run draws each port's offset (each host's NIC, the bottleneck port) from its seed, so a host and the link downstream of it never keep exactly the same pace and repeated runs drift apart as real ones do. 'Every clock exact' gives all ports the nominal rate and every seed the same pacing.",
        sources: &[
            ("linux-2.4", "±100 ppm, uniform per port: IEEE 802.3 clause 38 (1000BASE-SX/LX: 1.25 GBd ± 100 ppm) and clause 40 (1000BASE-T: 125 MHz ± 0.01 %); Long (Sandia, 2003) names PRO/1000 cards without saying fibre or copper, and both allow the same tolerance. Which end of a 1000BASE-T link is clock master is not stated, so each port draws its own offset. The hosts' timer ticks and the NICs' interrupt timers keep their nominal periods (their oscillators' tolerances are not in the standard)."),
            ("linux-2.4-ixgb", "±100 ppm, as linux-2.4: IEEE 802.3 clause 52 gives the 10 Gb/s PMDs (10GBASE-S/L/E) 10.3125 GBd ± 100 ppm."),
            ("linux-2.6.22", "±100 ppm: IEEE 802.3 clauses 38 and 40 (Gigabit Ethernet), whatever NIC Bateman et al. (2008) used."),
            ("ns-2", "Exact: a simulator's links run at their nominal rate."),
            ("nist", "Exact: a simulator's links run at their nominal rate."),
            ("linux-6", "Exact: the plain default, for free play."),
            ("sawtooth-1", "Exact (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::ReceiveBuffer,
        name: "Receive-buffer accounting",
        explanation: "Whether the advertised window is the window setting, or what Linux 2.4 offered from it: the socket buffer (capped at rmem_max, doubled), ¾ of it as window, and half of that once each segment is charged its 2 or 16 KB receive buffer.",
        sources: &[
            ("linux-2.4", "rmem_max 8388608 (Long's (Sandia, 2003) tuning). 2.4 net/core/sock.c doubles SO_RCVBUF after capping it at rmem_max; tcp_win_from_space with tcp_adv_win_scale = 2 offers ¾ of the buffer; __tcp_grow_window stops raising rcv_ssthresh above tcp_full_space/2 for segments whose ¾·truesize exceeds their length, as with the e1000's 2048- and 16384-byte receive buffers (e1000_change_mtu)."),
            ("linux-2.4-ixgb", "rmem_max 8388608, as linux-2.4: the receiver is the follow-up's 1 Gb/s PRO/1000 server on Linux 2.4 with the first report's tuning."),
            ("linux-2.6.22", "None: Bateman et al. (2008) sets rmem_max = 524288000 and tcp_rmem up to 524288000, and 2.6.22's tcp_grow_window measures against tcp_rmem[2], so the window is not held back."),
            ("ns-2", "None: ns-2's window_ is the advertised window."),
            ("nist", "None: not described in Mills et al. (NIST)."),
            ("linux-6", "None: the plain default (receive autotuning makes the setting the limit)."),
            ("sawtooth-1", "None (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::HostSendLimit,
        name: "Host send limit",
        explanation: "A ceiling on what the sending host itself can push (bus, CPU), below its NIC's line rate.",
        sources: &[
            ("linux-2.4", "Line rate: Sandia's 10 Gb/s follow-up gives no measured limit for its 10 Gb/s Opteron client (its NIC, bus and kernel are not stated), so no cap is set."),
            ("linux-2.4-ixgb", "Line rate: the follow-up gives no measured limit for its 10 Gb/s client (bus and CPU limits not stated)."),
            ("linux-2.6.22", "Line rate: not stated in Bateman et al. (2008)."),
            ("ns-2", "Line rate: a simulator."),
            ("nist", "Line rate: a simulator."),
            ("linux-6", "Line rate: the plain default."),
            ("sawtooth-1", "Line rate (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::CwndLimited,
        name: "Growth only when window-limited",
        explanation: "Which ACKs may grow the window: only those that come while the window, not something else (the receiver's window, the host's queues, TCP Small Queues), limited what the sender had out.",
        sources: &[
            ("linux-2.4", "The flight before the ACK filled the window: Linux 2.4 tcp_ack calls tcp_cong_avoid only when prior_in_flight >= snd_cwnd (the engine allows one packet short of it, and the smaller of cwnd and the receiver's window)."),
            ("linux-2.4-ixgb", "As linux-2.4."),
            ("linux-2.6.22", "The flight before the ACK filled the window: the rule the engine has kept since before profiles. 2.6.22's own tcp_is_cwnd_limited (in_flight >= cwnd, or with TSO the headroom test) was not read for this switch."),
            ("ns-2", "The flight before the ACK filled the window (the plain default; ns-2's agents grow on every new ACK, not read for this switch)."),
            ("nist", "The flight before the ACK filled the window: not described in Mills et al. (NIST); the plain default."),
            ("linux-6", "Linux 6.12 include/net/tcp.h tcp_is_cwnd_limited, which each module's cong_avoid tests (tcp_reno_cong_avoid, cubictcp_cong_avoid, highspeed, scalable, H-TCP, BIC): true if tp->is_cwnd_limited, or in slow start while cwnd < 2 × max_packets_out (\"ensure cwnd grows to twice what was ACKed\"). net/ipv4/tcp_output.c tcp_cwnd_validate, run at the end of tcp_write_xmit when it sent or the flight fills cwnd: when snd_una has passed cwnd_usage_seq, or the sender is window-limited now, or it was not and packets_out exceeds max_packets_out, it records is_cwnd_limited, max_packets_out = packets_out and cwnd_usage_seq = snd_nxt (read in Debian's linux-source-6.12, 6.12.95). The idle restart there (tcp_cwnd_application_limited after an RTO of starvation) is not modelled."),
            ("sawtooth-1", "The flight before the ACK filled the window (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::SmallQueues,
        name: "TCP Small Queues",
        explanation: "Whether a socket may fill the host's interface queue: with TCP Small Queues (Linux ≥ 3.6) a socket keeps only about 1 ms of its pacing rate below TCP and sends more when one of its segments leaves the host.",
        sources: &[
            ("linux-2.4", "None: TCP Small Queues came with Linux 3.6 (46d3ceabd8d9, \"tcp: TCP Small Queues\", 2012)."),
            ("linux-2.4-ixgb", "None: Linux 2.4 (TCP Small Queues came with 3.6)."),
            ("linux-2.6.22", "None: Linux 2.6.22 (TCP Small Queues came with 3.6)."),
            ("ns-2", "None: ns-2's agents hand packets straight to the link."),
            ("nist", "None: not described in Mills et al. (NIST); the plain default."),
            ("linux-6", "Linux 6.12 net/ipv4/tcp_output.c tcp_small_queue_check (read in Debian's linux-source-6.12, 6.12.95, and cross-checked in a 6.6 tree): before each segment, limit = max(2 × truesize, sk_pacing_rate >> 10), capped by tcp_limit_output_bytes only when the socket does not pace itself (SK_PACING_NONE; BBR sets SK_PACING_NEEDED), doubled for a retransmission (tcp_xmit_retransmit_queue's factor 1); over it (sk_wmem_alloc > limit) the socket waits, unless its retransmission queue is empty or holds one segment (tcp_rtx_queue_empty_or_single_skb, f921a4a5bffa, 6.6). tcp_wfree at the segment's transmit completion wakes it (the TSQ tasklet's tcp_tsq_write). tcp_limit_output_bytes 1048576 (tcp_ipv4.c tcp_sk_init, 16 × 65536; 5.0 to 6.15: 6.16 raised it to 4 MiB and caps every socket, 9ea3bfa61b09 and c4221a8cc3a7). sk_pacing_shift 10 (sock_init_data). A socket's own rate comes from tcp_update_pacing_rate at the end of tcp_cong_control: mss × max(cwnd, packets_out) / srtt × 200 % while cwnd < ssthresh / 2, else × 120 % (tcp_pacing_ss_ratio, tcp_pacing_ca_ratio), ~0 before the first RTT sample. truesize 2408 bytes at MSS 1448: the 704-byte small head (SKB_SMALL_HEAD_CACHE_SIZE for Debian 6.12's x86-64 -amd64 configuration) + 256 for the sk_buff + the payload in page fragments. Not modelled: TSO/GSO segments (the engine sends one MSS per skb), the ksoftirqd deferral in tcp_wfree, pure ACKs' own charge, and skb_still_in_host_queue's refusal to resend a segment whose earlier copy is still in the host."),
            ("sawtooth-1", "None (the engine before profiles)."),
        ],
    },
    SwitchInfo {
        id: SwitchId::DelayGranularity,
        name: "Delay granularity",
        explanation: "Whether the path delay is exact or released in whole timer ticks, as a netem router on a 1000 Hz kernel does (packets leave in bursts on 1 ms boundaries).",
        sources: &[
            ("linux-2.4", "Exact: Long's (Sandia, 2003) delay came from a Spirent Adtech AX/4000 hardware emulator."),
            ("linux-2.4-ixgb", "Exact: the follow-up's delay came from the Adtech AX/4000 hardware emulator."),
            ("linux-2.6.22", "1 ms: Bateman et al.'s router ran netem on Linux 2.6.18 with HZ = 1000; netem holds packets in time order and releases them from a jiffies timer (sch_netem.c, read in a 2.6.19-era copy; 2.6.18's clock source not verified)."),
            ("ns-2", "Exact: a simulator."),
            ("nist", "Exact: a simulator."),
            ("linux-6", "Exact: the plain default."),
            ("sawtooth-1", "Exact (the engine before profiles)."),
        ],
    },
];

pub fn switch_info(id: SwitchId) -> Option<&'static SwitchInfo> {
    SWITCHES.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::PROFILES;

    #[test]
    fn every_switch_is_documented_with_a_source_for_every_profile() {
        for id in SwitchId::ALL {
            let info = switch_info(id).unwrap_or_else(|| panic!("{id:?} undocumented"));
            assert!(!info.explanation.is_empty());
            for p in PROFILES {
                assert!(
                    info.sources
                        .iter()
                        .any(|(pid, src)| *pid == p.id && !src.is_empty()),
                    "{id:?} has no source for {}",
                    p.id
                );
            }
        }
    }
}
