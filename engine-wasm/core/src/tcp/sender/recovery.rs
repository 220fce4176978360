//! Entering and leaving the congestion states (Linux `tcp_input.c`): CWR
//! on local congestion or an ECN echo (`tcp_enter_cwr`), Recovery on fast
//! retransmit (`tcp_fastretrans_alert`), Loss on a timeout
//! (`tcp_enter_loss`), back to Open when the episode's data is acked; and
//! the window each ACK leaves: the algorithm's own control, the reduction
//! of CWR and Recovery by the profile's rule ([`reduction`]), or growth.

use super::Sender;
use crate::cc::{AckSample, CaEvent, CaState};
use crate::profile::{CwrRule, RecoveryRule};
use crate::tcp::reduction;
use crate::tcp::seq::before;
use crate::tcp::DUP_THRESH;

impl Sender {
    /// The interface queue refused a segment: local congestion (Long, Sandia 2003: the sender's own interface queue).
    /// Linux `tcp_enter_cwr`: only from Open/Disorder; the segment stays
    /// unsent. Returns true if a CWR episode began.
    pub fn on_local_congestion(&mut self, now_ns: u64) -> bool {
        self.stats.ifq_refusals += 1;
        if matches!(self.state, CaState::Open | CaState::Disorder) {
            self.enter_cwr(now_ns);
            self.stats.local_congestion_events += 1;
            true
        } else {
            false
        }
    }

    fn enter_cwr(&mut self, now_ns: u64) {
        let w = self.window;
        self.prior_cwnd = w.cwnd_pkts;
        self.window.ssthresh_pkts = match self.cwr_rule {
            CwrRule::Algorithm => self.cc.ssthresh(&w, now_ns),
            // Linux 2.4 `tcp_recalc_ssthresh`, whatever the algorithm; one
            // that owns its window (BBR) keeps its own rule.
            CwrRule::Halve if !self.cc.ignores_loss() && !self.owns_window => {
                (w.cwnd_pkts / 2).max(2)
            }
            CwrRule::Halve => self.cc.ssthresh(&w, now_ns),
        };
        if self.cwr_prr {
            // Linux ≥ 3.7 `tcp_init_cwnd_reduction`: PRR from here on, cwnd
            // untouched until the first ACK.
            self.prr_delivered = 0;
            self.prr_out = 0;
            self.recover_fs = self.packets_out();
        } else if !self.cc.ignores_loss() && !self.owns_window {
            // Algorithms that own the window (BBR's and Prague's
            // `cong_control`) keep it.
            self.window.cwnd_pkts = w.cwnd_pkts.min(self.in_flight() + 1);
        }
        self.window.cwnd_cnt = 0;
        self.reduction_cnt = 0;
        self.high_seq = self.snd_nxt;
        self.set_state(CaState::Cwr, now_ns);
    }

    /// ssthresh for a loss: the algorithm's loss rule if it has one
    /// (DCTCP), else its `ssthresh`.
    fn loss_ssthresh(&mut self, now_ns: u64) -> u32 {
        let w = self.window;
        match self.cc.loss_ssthresh(&w, now_ns) {
            Some(ss) => ss,
            None => self.cc.ssthresh(&w, now_ns),
        }
    }

    fn set_state(&mut self, state: CaState, now_ns: u64) {
        if self.state != state {
            self.state = state;
            let w = self.window;
            self.cc.set_state(&w, state, now_ns);
        }
    }

    /// The state changes one ACK brings (Linux `tcp_ack` and
    /// `tcp_fastretrans_alert`); true if fast retransmit began.
    pub(super) fn on_ack_state(&mut self, ece: bool, advanced: bool, now_ns: u64) -> bool {
        let mut fast_retransmit = false;
        // End of an episode once everything outstanding at its start is acked.
        if self.state != CaState::Open
            && self.state != CaState::Disorder
            && !before(self.snd_una, self.high_seq)
        {
            if matches!(self.state, CaState::Cwr | CaState::Recovery)
                && !self.cc.ignores_loss()
                && !self.owns_window
            {
                // Linux `tcp_complete_cwr` (the same rule in 2.4 and 2.6).
                self.window.cwnd_pkts = self.window.cwnd_pkts.min(self.window.ssthresh_pkts).max(1);
                let w = self.window;
                self.cc.cwnd_event(&w, CaEvent::CompleteCwr, now_ns);
            }
            self.set_state(CaState::Open, now_ns);
        }

        // ECN-Echo: one window reduction per round trip (RFC 3168 §6.1.2).
        // An algorithm that owns the window still goes through CWR (Linux
        // `tcp_try_to_open` enters it on `FLAG_ECE` whatever the module;
        // with a `cong_control` hook the stack leaves cwnd to the module).
        if ece
            && matches!(self.state, CaState::Open | CaState::Disorder)
            && (!self.cc.ignores_loss() || self.owns_window)
        {
            self.stats.ecn_reductions += 1;
            self.enter_cwr(now_ns);
        }

        // Fast retransmit (RFC 5681 §3.2; RFC 6675 with FACK marking).
        let loss_detected = if self.sack {
            self.scoreboard.lost_out > 0
        } else {
            self.dupacks >= DUP_THRESH
        };
        if loss_detected && matches!(self.state, CaState::Open | CaState::Disorder | CaState::Cwr) {
            self.enter_recovery(now_ns);
            fast_retransmit = true;
        } else if self.state == CaState::Recovery
            && advanced
            && !self.sack
            && before(self.snd_una, self.high_seq)
        {
            // NewReno partial ACK (RFC 6582 §3.2 step 5): resend the next hole.
            self.mark_head_lost(now_ns);
        } else if self.state == CaState::Open
            && (self.scoreboard.sacked_out > 0 || self.dupacks > 0)
        {
            self.set_state(CaState::Disorder, now_ns);
        } else if self.state == CaState::Disorder
            && self.scoreboard.sacked_out == 0
            && self.dupacks == 0
        {
            self.set_state(CaState::Open, now_ns);
        }
        fast_retransmit
    }

    /// The window after one ACK (`sample`), `newly_acked`,
    /// `delivered_now` and `newly_lost` as counted for it,
    /// `prior_in_flight` before it.
    pub(super) fn update_window(
        &mut self,
        sample: &AckSample,
        advanced: bool,
        newly_acked: u32,
        delivered_now: u32,
        newly_lost: u64,
        prior_in_flight: u32,
    ) {
        // PRR's slow-start allowance below ssthresh (see `reduction::prr`).
        let prr_slow_start = match self.recovery {
            RecoveryRule::PrrSafeAck => advanced && newly_lost == 0,
            _ => true,
        };
        // Window update.
        let w_before = self.window;
        let controlled = self.cc.cong_control(&mut self.window, sample, self.state);
        if !controlled {
            match (self.state, self.recovery) {
                // Linux ≥ 3.7 reduces in CWR by PRR as in Recovery
                // (`tcp_cwnd_reduction`); for the algorithms that ask.
                (CaState::Cwr, _) if self.cwr_prr => self.prr(delivered_now, prr_slow_start),
                // Linux 2.4–3.1: every ACK that reaches
                // `tcp_fastretrans_alert` in CWR or Recovery, duplicates
                // included, calls `tcp_cwnd_down`.
                (CaState::Cwr | CaState::Recovery, RecoveryRule::RateHalving) => {
                    let in_flight = self.in_flight();
                    let floor = self.cc.min_cwnd(&self.window);
                    reduction::rate_halving(
                        &mut self.window,
                        &mut self.reduction_cnt,
                        in_flight,
                        floor,
                    );
                }
                (CaState::Cwr, _) => {
                    if advanced || newly_acked > 0 {
                        let in_flight = self.in_flight();
                        let floor = self.window.ssthresh_pkts;
                        reduction::rate_halving(
                            &mut self.window,
                            &mut self.reduction_cnt,
                            in_flight,
                            floor,
                        );
                    }
                }
                (CaState::Recovery, RecoveryRule::Prr | RecoveryRule::PrrSafeAck) => {
                    self.prr(delivered_now, prr_slow_start)
                }
                (CaState::Recovery, RecoveryRule::Rfc6675) => {
                    // RFC 6675 §5 step 4.2: cwnd = ssthresh on entry, kept
                    // until recovery ends; sending is by pipe < cwnd.
                    self.window.cwnd_pkts = self.window.ssthresh_pkts;
                }
                (CaState::Open | CaState::Disorder | CaState::Loss, _) => {
                    // Growth only on an ACK that moves snd_una (RFC 5681
                    // §3.1: "for each ACK received that cumulatively
                    // acknowledges new data"; Linux 6.x `tcp_may_raise_cwnd`
                    // returns `flag & FLAG_DATA_ACKED` while `reordering`
                    // is at its sysctl default, as here with no reordering
                    // modelled; 2.4 and 2.6 test `FLAG_DATA_ACKED` in
                    // `tcp_ack`), by what that ACK newly delivers (Linux's
                    // `acked_sacked`). An ACK that only SACKs leaves cwnd
                    // alone: in Loss above all, where after a timeout the
                    // packets still queued come back SACKed above the hole.
                    // And only when the window was the limit (the
                    // profile's rule).
                    if advanced
                        && newly_acked > 0
                        && self.window_was_the_limit(prior_in_flight, &w_before)
                    {
                        self.cc.cong_avoid(&mut self.window, sample);
                    }
                }
            }
        }
        self.window.cwnd_pkts = self
            .window
            .cwnd_pkts
            .clamp(1, self.window.cwnd_clamp_pkts.max(1));
    }

    /// Proportional Rate Reduction for this ACK (see [`reduction::prr`]).
    fn prr(&mut self, delivered: u32, slow_start: bool) {
        if delivered == 0 {
            return;
        }
        self.prr_delivered += delivered;
        let pipe = self.in_flight();
        self.window.cwnd_pkts = reduction::prr(
            pipe,
            self.window.ssthresh_pkts,
            self.prr_delivered,
            self.prr_out,
            self.recover_fs,
            delivered,
            slow_start,
        );
    }

    fn enter_recovery(&mut self, now_ns: u64) {
        self.stats.fast_retransmits += 1;
        self.prr_delivered = 0;
        self.prr_out = 0;
        self.recover_fs = self.packets_out();
        let w = self.window;
        if self.state != CaState::Cwr {
            self.prior_cwnd = w.cwnd_pkts;
            self.window.ssthresh_pkts = self.loss_ssthresh(now_ns);
            self.reduction_cnt = 0;
        } else if let Some(ss) = self.cc.loss_ssthresh(&w, now_ns) {
            // DCTCP: a loss during an ECN reduction still halves (RFC 8257
            // §3.5; Linux `dctcp_state` on entering Recovery).
            self.window.ssthresh_pkts = ss;
        }
        self.window.cwnd_cnt = 0;
        self.high_seq = self.snd_nxt;
        if !self.sack {
            self.mark_head_lost(now_ns);
        }
        self.set_state(CaState::Recovery, now_ns);
    }

    /// Retransmission timeout (RFC 6298 §5, Linux `tcp_enter_loss`).
    pub fn on_timeout(&mut self, now_ns: u64) {
        self.stats.timeouts += 1;
        let w = self.window;
        // Reduce ssthresh unless already reduced inside this window: Linux
        // `tcp_enter_loss` (2.4's tcp_input.c and every later version)
        // reduces it in Open or Disorder, once the window of the last
        // reduction is acknowledged, and on a timeout in Loss after the
        // retransmissions made progress (`ca_state == TCP_CA_Loss &&
        // !retransmits`: the backoff count is reset by an ACK that advances
        // snd_una).
        if matches!(self.state, CaState::Open | CaState::Disorder)
            || !before(self.snd_una, self.high_seq)
            || (self.state == CaState::Loss && self.backoff == 0)
        {
            self.prior_cwnd = w.cwnd_pkts;
            self.window.ssthresh_pkts = self.loss_ssthresh(now_ns);
        } else if self.state == CaState::Cwr {
            // Already reduced in CWR; Linux keeps that ssthresh, except
            // DCTCP, whose ECN reduction does not count as a loss's (RFC
            // 8257 §3.5; Linux `dctcp_react_to_loss` on CA_EVENT_LOSS).
            if let Some(ss) = self.cc.loss_ssthresh(&w, now_ns) {
                self.window.ssthresh_pkts = ss;
            }
        } else {
            // Already reduced in Recovery or Loss: that ssthresh stays.
        }
        let w = self.window;
        // Linux `tcp_enter_loss` marks every packet lost (each through
        // `tcp_notify_skb_loss_event`) before it cuts cwnd.
        let hook = self.loss_hook(now_ns);
        self.cc.cwnd_event(&w, CaEvent::Loss, now_ns);
        self.window.cwnd_pkts = 1;
        self.window.cwnd_cnt = 0;
        self.scoreboard.mark_all_lost(
            self.snd_una,
            self.snd_nxt,
            self.sack,
            hook.bind(&mut self.cc),
        );
        self.dupacks = 0;
        self.high_seq = self.snd_nxt;
        self.backoff += 1;
        self.set_state(CaState::Loss, now_ns);
    }
}
