import { describe, expect, it } from 'vitest';
import { codeSpans } from './CodeText';

describe('codeSpans', () => {
  it('shows backticked spans as code, without the backticks', () => {
    expect(codeSpans('open the CSV written without `--compare`, or run `sawtooth sweep`')).toEqual([
      { text: 'open the CSV written without ', code: false },
      { text: '--compare', code: true },
      { text: ', or run ', code: false },
      { text: 'sawtooth sweep', code: true },
    ]);
  });

  it('leaves text with an unpaired backtick as it is', () => {
    expect(codeSpans('a ` alone')).toEqual([{ text: 'a ` alone', code: false }]);
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
  });
});
