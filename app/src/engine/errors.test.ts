import { describe, expect, it } from 'vitest';
import { describeEngineError, EngineCallError, engineErrorText, formatValidationError, isFatal, parseValidationErrors, toEngineError } from './errors';
import { eventKindName, parseEvents } from './events';

const DOC = '{"errors":[{"field":"hosts[0].flows[0].window_bytes","value":"12","message":"must be between 65536 and 536870912"}]}';

describe('engine errors', () => {
  it('parses the validation document', () => {
    expect(parseValidationErrors(DOC)).toEqual([
      { field: 'hosts[0].flows[0].window_bytes', value: '12', message: 'must be between 65536 and 536870912' },
    ]);
    expect(parseValidationErrors('{"errors":[]}')).toEqual([]);
    expect(parseValidationErrors('not json')).toBeNull();
    expect(parseValidationErrors('{"errors":[{"nope":1}]}')).toBeNull();
  });

  it('classifies thrown values', () => {
    const v = toEngineError(new Error(DOC));
    expect(v.kind).toBe('validation');
    expect(isFatal(v)).toBe(false);
    const trap = toEngineError(new WebAssembly.RuntimeError('unreachable'));
    expect(trap).toEqual({ kind: 'trap', message: 'unreachable' });
    expect(isFatal(trap)).toBe(true);
    expect(toEngineError('boom')).toEqual({ kind: 'internal', message: 'boom' });
  });

  it('formats errors naming the field, value and rule', () => {
    expect(formatValidationError({ field: 'rtt_ms', value: '900', message: 'must be between 0 and 500 ms' })).toBe(
      'rtt_ms = 900: must be between 0 and 500 ms',
    );
    expect(formatValidationError({ field: 'hosts[0]', value: '', message: 'unknown field' })).toBe('hosts[0]: unknown field');
    expect(describeEngineError(toEngineError(new Error(DOC)))).toEqual([
      'hosts[0].flows[0].window_bytes = 12: must be between 65536 and 536870912',
    ]);
  });

  it('an error as one line, and as the rejection of a call to a worker', () => {
    expect(engineErrorText(toEngineError(new Error(DOC)))).toBe('hosts[0].flows[0].window_bytes = 12: must be between 65536 and 536870912');
    expect(engineErrorText({ kind: 'trap', message: 'the engine trapped (unreachable)' })).toBe('the engine trapped (unreachable)');
    const e = new EngineCallError({ kind: 'load', message: 'the engine failed to load: 404' }, true);
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('the engine failed to load: 404');
    expect(e).toMatchObject({ fatal: true, error: { kind: 'load' } });
  });
});

describe('events', () => {
  it('parses flat triples and names kinds', () => {
    expect(parseEvents(Float64Array.from([0.5, 0, 0, 1.25, 1, 1, 2, 0, 4]))).toEqual([
      { t_s: 0.5, flow: 0, kind: 'network_loss' },
      { t_s: 1.25, flow: 1, kind: 'local_congestion' },
      { t_s: 2, flow: 0, kind: 'ecn_mark' },
    ]);
    expect(eventKindName(3)).toBe('timeout');
    expect(eventKindName(9)).toBe('entered_loss');
    expect(eventKindName(10)).toBe('unknown');
    expect(() => parseEvents(new Float64Array(4))).toThrow();
  });
});
