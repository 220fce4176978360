//! Trace-driven links (issue 25): a bottleneck whose service follows a
//! delivery-opportunity trace in Mahimahi's format (`mm-link`; Netravali
//! et al., "Mahimahi: Accurate Record-and-Replay for HTTP", USENIX ATC
//! 2015). A leaf module: the trace's format, its rules, and the schedule
//! the bottleneck reads (`aqm::Bottleneck::with_trace` serves it).
//!
//! Mahimahi's semantics, read from `src/frontend/link_queue.cc` and
//! `link_queue.hh` at commit 9f0dcb7e6fcb4d56d82500d6f610bb0731670ff7 of
//! github.com/ravinet/mahimahi:
//!
//! - The file has one line per delivery opportunity: a whole number of
//!   milliseconds, non-decreasing (`LinkQueue::LinkQueue`: "timestamps must
//!   be monotonically nondecreasing"), at least one line ("no valid
//!   timestamps found"), an empty line refused ("invalid empty line"), the
//!   last one above zero ("trace must last for a nonzero amount of time").
//! - Each opportunity lets `PACKET_SIZE` = 1504 bytes leave (`link_queue.hh`:
//!   "default max TUN payload size"); several lines with the same
//!   timestamp are several opportunities in that millisecond.
//! - The trace repeats: after the last line, the schedule starts again
//!   shifted by the last timestamp (`use_a_delivery_opportunity`:
//!   `base_timestamp_ += schedule_.back()`), so the period is the last
//!   timestamp.
//! - An opportunity that finds the queue empty is lost (`rationalize`: the
//!   loop breaks, the bytes are not kept).
//! - Bytes, not packets: an opportunity's 1504 bytes serve the packet at
//!   the head (`packet_in_transit_`) and then the next ones; a packet
//!   leaves at the opportunity that delivers its last byte, and a packet
//!   only partly served keeps its remaining bytes for the next opportunity.
//!   Packets larger than 1504 bytes are refused (`read_packet`: "packet
//!   size is greater than maximum").
//! - A packet counts its TUN read: Mahimahi opens its TUN device with
//!   `IFF_TUN` and without `IFF_NO_PI` (`src/util/netdevice.cc`), so each
//!   read carries the kernel's 4-byte packet-information header before the
//!   IP packet, and a 1500-byte IP packet uses exactly one opportunity.
//! - Time is milliseconds: `rationalize(now)` burns every opportunity at
//!   or before the current millisecond before a packet is enqueued
//!   (`read_packet`), so a packet that arrives during millisecond t can
//!   leave at the first opportunity after t at the earliest.

/// Bytes one delivery opportunity lets leave (Mahimahi's `PACKET_SIZE`).
pub const OPPORTUNITY_BYTES: u32 = 1504;

/// The TUN packet-information header Mahimahi's reads carry before each
/// IP packet (`struct tun_pi`: flags and protocol, 2 bytes each).
pub const TUN_HEADER_BYTES: u32 = 4;

/// The largest IP packet a trace-driven link carries: one opportunity's
/// bytes less the TUN header.
pub const MAX_IP_BYTES: u32 = OPPORTUNITY_BYTES - TUN_HEADER_BYTES;

const NS_PER_MS: u64 = 1_000_000;

/// One problem with a trace: the line (0-based) it is about, if any, the
/// value, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceProblem {
    pub index: Option<usize>,
    pub value: String,
    pub message: String,
}

/// The rules a trace obeys, for validation: at most `max_lines` lines,
/// timestamps whole milliseconds in `0..=max_ms`, non-decreasing, the last
/// above zero, at most `max_per_ms` opportunities in one millisecond, and
/// a mean rate within `mean_bps` (b/s of opportunity bytes). A problem that
/// repeats is reported once, at its first line, with the count of others.
pub fn check(
    opportunities_ms: &[f64],
    max_lines: usize,
    max_ms: f64,
    max_per_ms: usize,
    mean_bps: (f64, f64),
) -> Vec<TraceProblem> {
    let mut out = Vec::new();
    let n = opportunities_ms.len();
    if n == 0 {
        out.push(TraceProblem {
            index: None,
            value: "(empty)".into(),
            message: "lists no delivery opportunity; a trace needs at least one line \
                      (Mahimahi: \"no valid timestamps found\")"
                .into(),
        });
        return out;
    }
    if n > max_lines {
        out.push(TraceProblem {
            index: None,
            value: format!("{n} lines"),
            message: format!("is too long: at most {max_lines} delivery opportunities"),
        });
        return out;
    }
    let bad_value = |x: f64| !(x.is_finite() && x >= 0.0 && x <= max_ms && x.fract() == 0.0);
    let mut bad = opportunities_ms
        .iter()
        .enumerate()
        .filter(|(_, &x)| bad_value(x));
    if let Some((i, &x)) = bad.next() {
        let more = bad.count();
        out.push(TraceProblem {
            index: Some(i),
            value: x.to_string(),
            message: format!(
                "must be a whole number of milliseconds between 0 and {max_ms}{}",
                others(more)
            ),
        });
        return out;
    }
    let mut unordered = (1..n).filter(|&i| opportunities_ms[i] < opportunities_ms[i - 1]);
    if let Some(i) = unordered.next() {
        let more = unordered.count();
        out.push(TraceProblem {
            index: Some(i),
            value: opportunities_ms[i].to_string(),
            message: format!(
                "is before the line above it ({} ms): timestamps must be non-decreasing \
                 (Mahimahi: \"timestamps must be monotonically nondecreasing\"){}",
                opportunities_ms[i - 1],
                others(more)
            ),
        });
        return out;
    }
    let last = opportunities_ms[n - 1];
    if last == 0.0 {
        out.push(TraceProblem {
            index: Some(n - 1),
            value: "0".into(),
            message: "is the last timestamp: a trace must last a nonzero time, its period \
                      being its last timestamp (Mahimahi: \"trace must last for a nonzero \
                      amount of time\")"
                .into(),
        });
        return out;
    }
    // Opportunities in one millisecond (the lines are sorted).
    let mut start = 0;
    for i in 1..=n {
        if i == n || opportunities_ms[i] != opportunities_ms[start] {
            if i - start > max_per_ms {
                out.push(TraceProblem {
                    index: Some(start),
                    value: opportunities_ms[start].to_string(),
                    message: format!(
                        "begins {} opportunities in one millisecond; at most {max_per_ms} \
                         ({} b/s, the engine's fastest link)",
                        i - start,
                        max_per_ms as f64 * opportunity_bps(1.0)
                    ),
                });
                return out;
            }
            start = i;
        }
    }
    let mean = mean_bps_of(n, last);
    if !(mean >= mean_bps.0 && mean <= mean_bps.1) {
        out.push(TraceProblem {
            index: None,
            value: format!("{mean} b/s"),
            message: format!(
                "has a mean rate ({n} opportunities of {OPPORTUNITY_BYTES} bytes every {last} ms) \
                 outside {} to {} b/s",
                mean_bps.0, mean_bps.1
            ),
        });
    }
    out
}

fn others(more: usize) -> String {
    match more {
        0 => String::new(),
        1 => " (and 1 more line)".into(),
        n => format!(" (and {n} more lines)"),
    }
}

/// The rate of `per_ms` opportunities every millisecond, in b/s of
/// opportunity bytes (one per ms: 12.032 Mb/s).
pub fn opportunity_bps(per_ms: f64) -> f64 {
    per_ms * OPPORTUNITY_BYTES as f64 * 8.0 * 1e3
}

/// The mean rate of `lines` opportunities repeating every `period_ms`, in
/// b/s of opportunity bytes (what Mahimahi's throughput graph calls the
/// link's capacity).
pub fn mean_bps_of(lines: usize, period_ms: f64) -> f64 {
    opportunity_bps(lines as f64 / period_ms)
}

/// A problem reading a Mahimahi trace file, naming its line (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub line: usize,
    pub text: String,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {} ({:?}): {}", self.line, self.text, self.message)
        }
    }
}

/// The longest a line's value is quoted in an error.
const QUOTE_CHARS: usize = 40;

/// Read a trace file in Mahimahi's format: one whole number of
/// milliseconds per line. As `LinkQueue`'s constructor reads it, an empty
/// line is refused (a final newline ends the last line, as `getline`
/// reads it) and so is anything but an integer; unlike it, a line's
/// surrounding spaces and a carriage return (a file saved on Windows) are
/// allowed. The values' rules (order, length, rate) are [`check`]'s, run
/// by scenario validation.
pub fn parse_mahimahi(text: &str) -> Result<Vec<f64>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.trim().is_empty() && !body.contains('\n') {
        return Err(ParseError {
            line: 0,
            text: String::new(),
            message: "the file is empty; a trace needs at least one line \
                      (Mahimahi: \"no valid timestamps found\")"
                .into(),
        });
    }
    let mut out = Vec::new();
    for (i, raw) in body.split('\n').enumerate() {
        let line = raw.trim();
        let quote = || {
            let mut q: String = raw.chars().take(QUOTE_CHARS).collect();
            if raw.chars().count() > QUOTE_CHARS {
                q.push('…');
            }
            q
        };
        if line.is_empty() {
            return Err(ParseError {
                line: i + 1,
                text: quote(),
                message: "is empty (Mahimahi: \"invalid empty line\")".into(),
            });
        }
        let digits = line.strip_prefix('+').unwrap_or(line);
        let value = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse::<u64>().ok()
        } else {
            None
        };
        match value {
            // Exact in f64 up to 2^53; larger values fail validation's range.
            Some(v) => out.push(v as f64),
            None => {
                return Err(ParseError {
                    line: i + 1,
                    text: quote(),
                    message: "is not a whole number of milliseconds (one timestamp per line)"
                        .into(),
                })
            }
        }
    }
    Ok(out)
}

/// A validated trace as the link reads it: the opportunities' times in
/// milliseconds, repeating with the period of the last one.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceSchedule {
    ms: Vec<u64>,
    period_ms: u64,
}

impl TraceSchedule {
    /// The schedule of a trace that passed [`check`] (sorted, last above
    /// zero); `None` for one that would not.
    pub fn new(opportunities_ms: &[f64]) -> Option<TraceSchedule> {
        let ms: Vec<u64> = opportunities_ms
            .iter()
            .map(|&x| (x.is_finite() && x >= 0.0 && x.fract() == 0.0).then_some(x as u64))
            .collect::<Option<_>>()?;
        let period_ms = *ms.last()?;
        if period_ms == 0 || ms.windows(2).any(|w| w[1] < w[0]) {
            return None;
        }
        Some(TraceSchedule { ms, period_ms })
    }

    pub fn period_ms(&self) -> u64 {
        self.period_ms
    }

    pub fn lines(&self) -> usize {
        self.ms.len()
    }

    /// Opportunities at or before millisecond `t_ms` since time zero, the
    /// trace repeating: cycle c holds c·period + each line.
    pub fn count_through_ms(&self, t_ms: u64) -> u64 {
        let cycles = t_ms / self.period_ms;
        let rest = t_ms - cycles * self.period_ms;
        cycles * self.ms.len() as u64 + self.ms.partition_point(|&x| x <= rest) as u64
    }

    /// Opportunities at or before `t_ns`.
    pub fn count_through_ns(&self, t_ns: u64) -> u64 {
        self.count_through_ms(t_ns / NS_PER_MS)
    }

    /// Opportunities at exactly `t_ns` (several lines may share a
    /// millisecond, and with a first line at 0 a cycle's first
    /// opportunity falls with the previous cycle's last).
    pub fn count_at_ns(&self, t_ns: u64) -> u64 {
        if t_ns % NS_PER_MS != 0 {
            return 0;
        }
        let t_ms = t_ns / NS_PER_MS;
        self.count_through_ms(t_ms)
            - if t_ms == 0 {
                0
            } else {
                self.count_through_ms(t_ms - 1)
            }
    }

    /// The first opportunity strictly after `t_ns`, in ns. A packet that
    /// arrives at `t_ns` waits for it: Mahimahi's clock is in whole
    /// milliseconds and burns the current millisecond's opportunities
    /// before it enqueues an arrival.
    pub fn first_after_ns(&self, t_ns: u64) -> u64 {
        let m = t_ns / NS_PER_MS + 1;
        let cycles = m / self.period_ms;
        let rest = m - cycles * self.period_ms;
        if rest == 0 && cycles > 0 {
            // The previous cycle's last line is at its end, m itself.
            return m * NS_PER_MS;
        }
        // The last line is the period, above `rest`: always found.
        let i = self.ms.partition_point(|&x| x < rest);
        (cycles * self.period_ms + self.ms[i]) * NS_PER_MS
    }

    /// The mean rate, in b/s of opportunity bytes.
    pub fn mean_bps(&self) -> f64 {
        mean_bps_of(self.ms.len(), self.period_ms as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(ms: &[u64]) -> TraceSchedule {
        TraceSchedule::new(&ms.iter().map(|&x| x as f64).collect::<Vec<_>>()).unwrap()
    }

    const LIMITS: (usize, f64, usize, (f64, f64)) = (1_000_000, 3_600_000.0, 8311, (1e6, 100e9));

    fn problems(ms: &[f64]) -> Vec<TraceProblem> {
        check(ms, LIMITS.0, LIMITS.1, LIMITS.2, LIMITS.3)
    }

    #[test]
    fn one_opportunity_per_ms_is_mahimahis_12_mbps() {
        assert_eq!(opportunity_bps(1.0), 12_032_000.0);
        let s = schedule(&[1]);
        assert_eq!(s.mean_bps(), 12_032_000.0);
        assert_eq!(MAX_IP_BYTES, 1500);
    }

    #[test]
    fn the_schedule_repeats_with_the_last_timestamp_as_period() {
        // Lines 2, 2, 5: two opportunities at 2 ms, one at 5; then 7, 7, 10...
        let s = schedule(&[2, 2, 5]);
        assert_eq!(s.count_through_ms(1), 0);
        assert_eq!(s.count_through_ms(2), 2);
        assert_eq!(s.count_through_ms(5), 3);
        assert_eq!(s.count_through_ms(7), 5);
        assert_eq!(s.count_through_ms(10), 6);
        assert_eq!(s.count_at_ns(7_000_000), 2);
        assert_eq!(s.count_at_ns(7_000_001), 0);
        assert_eq!(s.first_after_ns(0), 2_000_000);
        assert_eq!(s.first_after_ns(2_000_000), 5_000_000, "not the one at now");
        assert_eq!(s.first_after_ns(4_999_999), 5_000_000);
        assert_eq!(s.first_after_ns(5_000_000), 7_000_000);
        assert_eq!(s.first_after_ns(9_500_000), 10_000_000);
        // One line: an opportunity every millisecond.
        let s = schedule(&[1]);
        assert_eq!(s.first_after_ns(0), 1_000_000);
        assert_eq!(s.first_after_ns(5_500_000), 6_000_000);
        assert_eq!(s.first_after_ns(6_000_000), 7_000_000);
        assert_eq!(s.count_at_ns(6_000_000), 1);
    }

    #[test]
    fn a_first_line_at_zero_falls_with_the_previous_cycles_last() {
        // 0, 3: opportunities at 0, 3 (cycle 0), 3, 6 (cycle 1), 6, 9...
        let s = schedule(&[0, 3]);
        assert_eq!(s.count_at_ns(0), 1);
        assert_eq!(s.count_at_ns(3_000_000), 2);
        assert_eq!(s.count_through_ms(6), 5);
        assert_eq!(s.first_after_ns(0), 3_000_000);
        assert_eq!(s.first_after_ns(3_000_000), 6_000_000);
    }

    #[test]
    fn mahimahi_files_parse_and_bad_lines_are_named() {
        assert_eq!(
            parse_mahimahi("1\n2\n2\n5\n").unwrap(),
            [1.0, 2.0, 2.0, 5.0]
        );
        assert_eq!(parse_mahimahi("1\r\n3").unwrap(), [1.0, 3.0]);
        let e = parse_mahimahi("1\n\n3\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("empty"));
        let e = parse_mahimahi("1\n2.5\n").unwrap_err();
        assert_eq!((e.line, e.text.as_str()), (2, "2.5"));
        assert!(parse_mahimahi("1\n-4\n").is_err());
        assert!(parse_mahimahi("").unwrap_err().message.contains("empty"));
        assert!(parse_mahimahi("\n").unwrap_err().message.contains("empty"));
    }

    #[test]
    fn empty_unordered_and_absurd_traces_are_refused() {
        assert!(problems(&[])[0].message.contains("no delivery opportunity"));
        let p = problems(&[1.0, 3.0, 2.0, 5.0, 4.0]);
        assert_eq!(p[0].index, Some(2));
        assert!(p[0].message.contains("non-decreasing"), "{}", p[0].message);
        assert!(p[0].message.contains("1 more line"));
        assert_eq!(problems(&[1.0, 1.5])[0].index, Some(1));
        assert_eq!(problems(&[-1.0, 1.0])[0].index, Some(0));
        assert_eq!(problems(&[f64::NAN])[0].index, Some(0));
        assert_eq!(problems(&[4e6])[0].index, Some(0));
        assert!(problems(&[0.0, 0.0])[0].message.contains("nonzero"));
        // One opportunity a second: 12 kb/s.
        let p = problems(&[1000.0]);
        assert!(p[0].message.contains("mean rate"), "{:?}", p);
        // 10 000 opportunities in one millisecond: 120 Gb/s.
        let burst = vec![1.0; 10_000];
        assert!(problems(&burst)[0].message.contains("one millisecond"));
        assert!(problems(&[1.0, 2.0, 2.0]).is_empty());
    }
}
