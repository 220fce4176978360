import { describe, expect, it } from 'vitest';
import { LIMITS } from '../engine/generated/defaults';
import { mtuAllowed } from './MtuControl';

describe('the MTU a bottleneck can carry', () => {
  it('is any frame on a constant link, and at most the trace’s 1500 bytes with a trace (the engine’s limit)', () => {
    expect(mtuAllowed(9000, false)).toBe(true);
    expect(mtuAllowed(9000, true)).toBe(false);
    expect(mtuAllowed(1500, true)).toBe(true);
    expect(LIMITS.trace_mtu_bytes).toEqual([576, 1500]);
  });
});
