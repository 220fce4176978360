import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from './duplicateKeys';

describe('firstDuplicateKey', () => {
  it('finds a key given twice in one object, by its path', () => {
    expect(firstDuplicateKey('{"rtt_ms": 30, "rtt_ms": 300}')).toBe('rtt_ms');
    expect(firstDuplicateKey('{"hosts": [{"nic_bps": 1}, {"flows": [], "nic_bps": 2, "nic_bps": 3}]}')).toBe('hosts[1].nic_bps');
  });
  it('allows equal keys in different objects, and keys inside strings', () => {
    expect(firstDuplicateKey('{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}')).toBeNull();
    expect(firstDuplicateKey('{"a": "x, \\"a\\": 1", "b": "{\\"a\\"}"}')).toBeNull();
  });
  it('decodes escaped keys before comparing them', () => {
    expect(firstDuplicateKey('{"a": 1, "\\u0061": 2}')).toBe('a');
  });
});
