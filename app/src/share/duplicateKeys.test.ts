import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonShapeProblem } from './duplicateKeys';

/** The path of the first key given twice, at any depth. */
function firstDuplicateKey(text: string): string | null {
  const p = jsonShapeProblem(text, Infinity);
  return p?.kind === 'duplicate' ? p.path : null;
}

describe('jsonShapeProblem', () => {
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
  it('names the path however deep the duplicate lies, and reads any shape in one pass', () => {
    const depth = 200_000;
    const deep = `{"a": ${'['.repeat(depth)}{"x": 1, "y": {"z": [], "z": 2}}${']'.repeat(depth)}}`;
    expect(firstDuplicateKey(deep)).toBe(`a${'[0]'.repeat(depth)}.y.z`);
    const wide = `{"p": {${Array.from({ length: 90_000 }, (_, i) => `"k${i}": ${i}`).join(', ')}, "k89999": 0}}`;
    expect(firstDuplicateKey(wide)).toBe('p.k89999');
    const tricky = `{"hosts": [${'{"a": 1}, '.repeat(1000)}{"a": [1, {"b": "\\\\", "b\\"": "{\\"b\\": 1}"}], "b": {"c": 1, "\\u0063": 2}}]}`;
    expect(() => JSON.parse(tricky)).not.toThrow();
    expect(firstDuplicateKey(tricky)).toBe('hosts[1000].b.c');
  });
  it('refuses nesting deeper than a scenario can be, at the first level too deep', () => {
    const at = (depth: number) => `{"a": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(jsonShapeProblem(at(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonShapeProblem(at(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'deep', maxDepth: MAX_JSON_DEPTH });
    // Whichever comes first in the text.
    expect(jsonShapeProblem(`{"b": 1, "b": 2, "a": ${'['.repeat(100)}${']'.repeat(100)}}`)).toEqual({ kind: 'duplicate', path: 'b' });
    expect(jsonShapeProblem(`{"scenario": {"version": 2, "hosts": [{"flows": [{"params": {"a": 1}}]}]}}`)).toBeNull();
  });
});
