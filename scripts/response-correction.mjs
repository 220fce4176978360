#!/usr/bin/env node
// The random-loss corrections and per-event spreads that
// engine-wasm/core/tests/response_functions.rs uses, reproduced by a per-RTT
// Monte Carlo that shares no code with the engine:
//
//   every round trip, each of the W packets in flight is lost with
//   probability p (Bernoulli, independent); a round trip with any loss
//   reduces the window once, W ← (1 − b(W))·W; a loss-free one grows it,
//   W += a(W).
//
// It prints, per algorithm and loss rate, the time-averaged window against
// the periodic-loss closed form (the correction factor) and s₁, the spread
// per loss event (a time average over K loss events has relative standard
// deviation about s₁/√K).
//
//   node scripts/response-correction.mjs [round-trips per point, default 1e6]
//
// Rules: Standard TCP a = 1, b = 1/2 (RFC 5681); HighSpeed TCP RFC 3649 §5
// (Low_Window 38, High_Window 83000, High_Decrease 0.1, a(w) from
// p(w) = 0.078/w^1.2); Scalable TCP a = 0.01·W per round trip, b = 0.125
// (Kelly 2003), Standard TCP below the legacy window of 16.

const rtts = Number(process.argv[2] ?? 1e6);
if (!(rtts >= 1e4)) {
  console.error('round trips per point: a number ≥ 10000');
  process.exit(1);
}

/** A seeded generator (mulberry32), so every run prints the same numbers. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const standard = { a: () => 1, b: () => 0.5 };

const LOW_W = 38;
const HIGH_W = 83000;
const HIGH_DECREASE = 0.1;
function hsB(w) {
  if (w <= LOW_W) return 0.5;
  return (HIGH_DECREASE - 0.5) * (Math.log(w) - Math.log(LOW_W)) / (Math.log(HIGH_W) - Math.log(LOW_W)) + 0.5;
}
const highspeed = {
  a: (w) => (w <= LOW_W ? 1 : (w * w * (0.078 / Math.pow(w, 1.2)) * 2 * hsB(w)) / (2 - hsB(w))),
  b: hsB,
};

const scalable = {
  a: (w) => (w < 16 ? 1 : 0.01 * w),
  b: (w) => (w < 16 ? 0.5 : 0.125),
};

/** Mean window and s₁ for one rule at loss rate p. */
function simulate(rule, p, w0, seed) {
  const u = rng(seed);
  let w = w0;
  // Let the window settle before measuring.
  const warmup = Math.floor(rtts / 10);
  let sum = 0;
  let n = 0;
  let cycleSum = 0;
  let cycleN = 0;
  /** Each loss cycle's window sum and length in round trips. */
  const cycles = [];
  for (let i = 0; i < rtts + warmup; i++) {
    const lossInRtt = -Math.expm1(w * Math.log1p(-p));
    const lost = u() < lossInRtt;
    if (i >= warmup) {
      sum += w;
      n++;
      cycleSum += w;
      cycleN++;
      if (lost) {
        cycles.push([cycleSum, cycleN]);
        cycleSum = 0;
        cycleN = 0;
      }
    }
    w = lost ? Math.max(1, (1 - rule.b(w)) * w) : w + rule.a(w);
  }
  const mean = sum / n;
  // The time average over K cycles is ΣS/ΣL (S a cycle's window sum, L its
  // length): by the delta method its relative spread is s₁/√K with
  // s₁ = sd(S − mean·L) / (mean(L)·mean).
  const meanL = cycles.reduce((t, [, l]) => t + l, 0) / cycles.length;
  const d = cycles.map(([sw, l]) => sw - mean * l);
  const v = d.reduce((t, x) => t + x * x, 0) / Math.max(1, cycles.length - 1);
  return { mean, s1: Math.sqrt(v) / (meanL * mean), events: cycles.length };
}

const cases = [
  ['Standard TCP', standard, (p) => 1.2 / Math.sqrt(p), [1e-2, 1e-3, 1e-4, 1e-5]],
  ['HighSpeed TCP', highspeed, (p) => 0.12 / Math.pow(p, 0.835), [1e-4, 1e-5]],
  ['Scalable TCP', scalable, (p) => 0.01 / (0.125 * p), [1e-3, 1e-4, 1e-5]],
];

console.log(`per-RTT Monte Carlo, ${rtts} round trips per point (after a tenth as many to settle)`);
console.log('algorithm       p       formula W   mean W    factor   s1     loss events');
let seed = 1;
for (const [name, rule, formula, ps] of cases) {
  for (const p of ps) {
    const f = formula(p);
    const r = simulate(rule, p, f, seed++);
    console.log(
      `${name.padEnd(15)} ${p.toExponential(0).padEnd(7)} ${f.toFixed(1).padStart(9)} ${r.mean.toFixed(1).padStart(9)}   ${(r.mean / f).toFixed(3)}   ${r.s1.toFixed(2)}   ${r.events}`,
    );
  }
}
