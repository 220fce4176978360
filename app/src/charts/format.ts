// Number formatting for axes and read-outs.

/** Decimal places that resolve ticks `step` apart (0 for integer steps). */
export function decimalsForStep(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  return Math.max(0, Math.min(10, Math.ceil(-Math.log10(step) - 1e-9)));
}

const groupFormats = new Map<number, Intl.NumberFormat>();
function grouped(decimals: number): Intl.NumberFormat {
  let f = groupFormats.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    groupFormats.set(decimals, f);
  }
  return f;
}

/** A tick label: enough decimals for the tick step, thousands grouped ("12,000", "0.25"). */
export function formatTick(value: number, step: number): string {
  const s = grouped(decimalsForStep(step)).format(value);
  return s === '-0' ? '0' : s.replace(/^-0(\.0+)?$/, '0$1');
}

/** Bits per second with an SI unit: "940 Mb/s", "1.25 Gb/s", "12.5 kb/s". */
export function formatBitrate(bps: number, significant = 3): string {
  if (!Number.isFinite(bps)) return '–';
  const units = ['b/s', 'kb/s', 'Mb/s', 'Gb/s', 'Tb/s'];
  let v = Math.abs(bps);
  let u = 0;
  while (v >= 999.5 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  v = Number(v.toPrecision(significant));
  const digits = v === 0 ? 0 : Math.max(0, significant - 1 - Math.floor(Math.log10(v)));
  return `${bps < 0 ? '-' : ''}${v.toFixed(digits)} ${units[u]}`;
}

/** Megabits per second with a fixed number of decimals: 939.46 → "939.5". */
export function formatMbps(bps: number, decimals = 1): string {
  return Number.isFinite(bps) ? (bps / 1e6).toFixed(decimals) : '–';
}

/** Seconds for the time axis: whole seconds without decimals. */
export function formatSeconds(s: number, step = 1): string {
  return `${formatTick(s, step)}`;
}
