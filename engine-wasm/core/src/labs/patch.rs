//! Scenario changes a lab's series or its quick scale makes
//! ([`ScenarioPatch`]), and sizing the bottleneck buffer with RED's
//! thresholds scaled along.

use crate::scenario::{Aqm, LatencyProbe, Scenario};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Scenario settings a series (or the quick scale) changes. Every field is
/// optional; `host_count` is applied first, then the rest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = "labs.ts")]
pub struct ScenarioPatch {
    /// Keep the first N hosts (or repeat the last one up to N).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host_count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duration_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sample_interval_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mtu_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rtt_ms: Option<f64>,
    /// Every host's NIC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nic_bps: Option<f64>,
    /// Every host's interface queue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub txqueuelen_pkts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bottleneck_rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub buffer_pkts: Option<u32>,
    /// Every flow's window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub window_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub initial_ssthresh_pkts: Option<u32>,
    /// Set the initial ssthresh to Linux's "infinite".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unlimited_ssthresh: Option<bool>,
    /// The bottleneck's queue discipline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub aqm: Option<Aqm>,
    /// Add the latency probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub probe: Option<LatencyProbe>,
    /// Start times of the flows, in the order of `Series::flows`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_ms: Option<Vec<f64>>,
}

impl ScenarioPatch {
    pub(super) fn apply(&self, s: &mut Scenario) {
        if let Some(n) = self.host_count {
            let n = n.max(1) as usize;
            if s.hosts.len() > n {
                s.hosts.truncate(n);
            }
            while s.hosts.len() < n {
                let last = s.hosts.last().expect("a base has hosts").clone();
                s.hosts.push(last);
            }
        }
        if let Some(v) = self.duration_ms {
            s.duration_ms = v;
        }
        if let Some(v) = self.sample_interval_ms {
            s.sample_interval_ms = v;
        }
        if let Some(v) = self.mtu_bytes {
            s.mtu_bytes = v;
        }
        if let Some(v) = self.rtt_ms {
            s.rtt_ms = v;
        }
        if let Some(v) = self.bottleneck_rate_bps {
            s.bottleneck.rate_bps = v;
        }
        if let Some(aqm) = &self.aqm {
            s.bottleneck.aqm = aqm.clone();
        }
        if let Some(probe) = &self.probe {
            s.probe = Some(probe.clone());
        }
        if let Some(v) = self.buffer_pkts {
            scale_buffer(s, v);
        }
        if let Some(v) = self.initial_ssthresh_pkts {
            s.tcp.initial_ssthresh_pkts = Some(v);
        }
        if self.unlimited_ssthresh == Some(true) {
            s.tcp.initial_ssthresh_pkts = None;
        }
        for h in &mut s.hosts {
            if let Some(v) = self.nic_bps {
                h.nic_bps = v;
            }
            if let Some(v) = self.txqueuelen_pkts {
                h.txqueuelen_pkts = v;
            }
            if let Some(v) = self.window_bytes {
                for f in &mut h.flows {
                    f.window_bytes = v;
                }
            }
        }
        if let Some(starts) = &self.start_ms {
            for (i, f) in s.hosts.iter_mut().flat_map(|h| &mut h.flows).enumerate() {
                if let Some(t) = starts.get(i).or(starts.last()) {
                    f.start_ms = *t;
                }
            }
        }
    }
}

/// Set the bottleneck buffer, scaling RED's thresholds with it.
pub(super) fn scale_buffer(s: &mut Scenario, buffer_pkts: u32) {
    let old = s.bottleneck.buffer_pkts.max(1) as f64;
    let new = buffer_pkts.max(1);
    if let Aqm::Red {
        min_th_pkts,
        max_th_pkts,
        ..
    } = &mut s.bottleneck.aqm
    {
        let k = new as f64 / old;
        *min_th_pkts = (*min_th_pkts * k).max(1.0);
        *max_th_pkts = (*max_th_pkts * k).max(*min_th_pkts + 1.0).min(new as f64);
    }
    if let Aqm::StepMark {
        threshold_pkts: Some(k),
    } = &mut s.bottleneck.aqm
    {
        *k = (*k).min(new);
    }
    s.bottleneck.buffer_pkts = new;
}
