//! Allowed ranges, shared by validation and the app's controls (the app's
//! copy is generated from these: `app/src/engine/generated/constants.ts`).

pub const DURATION_MS: (f64, f64) = (1.0, 3_600_000.0);
pub const SAMPLE_INTERVAL_MS: (f64, f64) = (1.0, 10_000.0);
pub const MAX_SAMPLES: f64 = 1_000_000.0;
pub const MTU_BYTES: (u32, u32) = (576, 9000);
pub const RTT_MS: (f64, f64) = (0.0, 1000.0);
pub const LOSS_RATE: (f64, f64) = (0.0, 0.5);
pub const INITIAL_CWND_PKTS: (u32, u32) = (1, 100);
pub const INITIAL_SSTHRESH_PKTS: (u32, u32) = (2, 10_000_000);
/// `tcp.initial_sequence`: any 32-bit sequence number.
pub const INITIAL_SEQUENCE: (u64, u64) = (0, u32::MAX as u64);
pub const RATE_BPS: (f64, f64) = (1e6, 100e9);
pub const BUFFER_PKTS: (u32, u32) = (1, 1_000_000);
pub const HOSTS: (usize, usize) = (1, 64);
pub const FLOWS_PER_HOST: (usize, usize) = (1, 64);
pub const TXQUEUELEN_PKTS: (u32, u32) = (1, 100_000);
pub const WINDOW_BYTES: (u32, u32) = (65_536, 536_870_912);
pub const EXTRA_DELAY_MS: (f64, f64) = (0.0, 1000.0);
pub const INITIAL_RTO_MS: (f64, f64) = (200.0, 60_000.0);
pub const NIC_RING_PKTS: (u32, u32) = (0, 65_536);
pub const INTERRUPT_INTERVAL_US: (f64, f64) = (0.0, 100_000.0);
pub const RMEM_MAX_BYTES: (u32, u32) = (65_536, 1_073_741_824);
pub const DELAY_GRANULARITY_US: (f64, f64) = (0.0, 100_000.0);
pub const NIC_RING_DESCRIPTORS: (u32, u32) = (0, 65_536);
pub const TX_COMPLETION_US: (f64, f64) = (0.0, 100_000.0);
pub const INTERRUPT_THROTTLE_US: (f64, f64) = (0.0, 100_000.0);
/// The kernel's HZ (0: exact timers); Linux builds used 100–1000.
pub const TIMER_HZ: (u32, u32) = (0, 10_000);
/// Ethernet allows ±100 ppm; up to ±0.1 % for play.
pub const CLOCK_TOLERANCE_PPM: (f64, f64) = (0.0, 1000.0);
/// `net.ipv4.tcp_limit_output_bytes` (0: TCP Small Queues off); the
/// sysctl takes any int, 64 MiB is far above every default.
pub const SMALL_QUEUE_LIMIT_BYTES: (u32, u32) = (0, 67_108_864);
pub const RECEIVER_INTERRUPT_US: (f64, f64) = (0.0, 100_000.0);
pub const RECEIVER_INTERRUPT_THROTTLE_US: (f64, f64) = (0.0, 100_000.0);
/// CoDel's and FQ-CoDel's TARGET and INTERVAL.
pub const CODEL_TARGET_MS: (f64, f64) = (0.001, 1000.0);
pub const CODEL_INTERVAL_MS: (f64, f64) = (0.1, 10_000.0);
/// FQ-CoDel's quantum: Linux's `fq_codel_change` takes at least 256
/// bytes, at most 1 MiB (`FQ_CODEL_QUANTUM_MAX`).
pub const FQ_QUANTUM_BYTES: (u32, u32) = (256, 1 << 20);
/// FQ-CoDel's flow queues: Linux refuses more than 65 536.
pub const FQ_FLOWS: (u32, u32) = (1, 65_536);
pub const PIE_TARGET_MS: (f64, f64) = (0.001, 1000.0);
pub const PIE_T_UPDATE_MS: (f64, f64) = (0.1, 1000.0);
/// PIE's alpha and beta, per second: Linux's range (0 to 32 sixteenths,
/// `sch_pie.c`).
pub const PIE_ALPHA_BETA: (f64, f64) = (0.0, 2.0);
pub const PIE_MAX_BURST_MS: (f64, f64) = (0.0, 10_000.0);
/// DualPI2's target and update interval (Linux takes microseconds;
/// `tupdate` at least 1 µs).
pub const DUALPI2_TARGET_MS: (f64, f64) = (0.001, 1000.0);
pub const DUALPI2_T_UPDATE_MS: (f64, f64) = (0.001, 1000.0);
/// DualPI2's α and β, per second: Linux's netlink unit is 1/256 Hz,
/// at least 1 (`dualpi2_alpha_beta_range`).
pub const DUALPI2_ALPHA_BETA: (f64, f64) = (1.0 / 256.0, 1000.0);
/// The L queue's step, in sojourn time (Linux: microseconds, 0 allowed).
pub const DUALPI2_STEP_THRESH_MS: (f64, f64) = (0.0, 1000.0);
/// The coupling factor k: Linux's `u8`, at least 1.
pub const DUALPI2_COUPLING: (u32, u32) = (1, 255);
/// The classic queue's weight w_C in per cent (Linux `MAX_WC`).
pub const DUALPI2_C_PROTECTION_PCT: (u32, u32) = (0, 100);
/// The latency probe's interval; its size runs from an empty echo
/// (20 IPv4 + 8 ICMP bytes) to the MTU.
pub const PROBE_INTERVAL_MS: (f64, f64) = (1.0, 60_000.0);
pub const PROBE_MIN_SIZE_BYTES: u32 = 28;
/// A trace's lines (`bottleneck.trace.opportunities_ms`): 8 bytes each
/// in the engine, twice (the scenario and the schedule), so at most
/// 16 MB.
pub const TRACE_LINES_MAX: usize = 1_000_000;
/// A trace's `name`, in characters.
pub const TRACE_NAME_CHARS: usize = 200;
/// A trace's timestamps: up to the longest run.
pub const TRACE_MS: (f64, f64) = (0.0, DURATION_MS.1);
/// A trace's mean rate, in b/s of opportunity bytes: the range of a
/// constant-rate link.
pub const TRACE_MEAN_BPS: (f64, f64) = RATE_BPS;
/// Opportunities in one millisecond: no more than the fastest link
/// (100 Gb/s) carries, 1504 bytes each.
pub const TRACE_PER_MS_MAX: usize = 8_311;
/// The MTU a trace-driven link carries: Mahimahi's 1504-byte
/// opportunity less its 4-byte TUN header.
pub const TRACE_MTU_BYTES: (u32, u32) = (MTU_BYTES.0, crate::link_trace::MAX_IP_BYTES);
