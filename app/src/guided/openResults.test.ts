import { describe, expect, it } from 'vitest';
import { dropProblem, fileSizeProblem, importedText, MAX_FILE_BYTES, outcomeText, sweepCommand } from './openResults';
import { lab, series } from './testing/fixtures';

describe('opening a sweep file from the CLI: what the page says', () => {
  const L = lab({ id: 'two-to-one', series: [series('s0', [{ algorithm: 'reno' }])] });

  it('names the command that writes the file for this lab and scale', () => {
    expect(sweepCommand(L, true)).toBe('sawtooth sweep two-to-one --quick --out two-to-one-quick.csv');
    expect(sweepCommand(L, false)).toBe('sawtooth sweep two-to-one --out two-to-one.csv');
  });

  it('refuses empty and oversized files before reading them, and drops of other than one file', () => {
    expect(fileSizeProblem(0)).toBe('the file is empty');
    expect(fileSizeProblem(1000)).toBeNull();
    expect(fileSizeProblem(MAX_FILE_BYTES)).toBeNull();
    expect(fileSizeProblem(MAX_FILE_BYTES + 1)).toMatch(/up to 64 MB/);
    expect(dropProblem(1)).toBeNull();
    expect(dropProblem(0)).toMatch(/nothing was dropped/);
    expect(dropProblem(3)).toMatch(/3 files were dropped.*sawtooth merge/);
  });

  it('says what was opened, or why not with the line', () => {
    expect(outcomeText('a.csv', { ok: true, runs: 75 })).toBe('Opened a.csv: 75 runs computed by the CLI, shown below.');
    expect(outcomeText('a.csv', { ok: true, runs: 1 })).toBe('Opened a.csv: 1 run computed by the CLI, shown below.');
    expect(outcomeText('a.csv', { ok: false, line: 12, message: 'this CSV row differs' })).toBe('a.csv was not opened (line 12): this CSV row differs.');
    expect(outcomeText('a.csv', { ok: false, line: null, message: 'the file is empty' })).toBe('a.csv was not opened: the file is empty.');
  });

  it('says where the results on screen came from', () => {
    expect(importedText({ file: 'a.csv', quick: true, series: [], engine: '0.1.0+ab', stamp: 's', runs: 75, ahead: false })).toBe('75 runs from a.csv, computed by the CLI (quick scale, engine 0.1.0+ab)');
    expect(importedText({ file: 'b.csv', quick: false, series: ['x', 'y'], engine: 'e', stamp: 's', runs: 1, ahead: false })).toBe('1 run from b.csv, computed by the CLI (faithful scale, series x, y only, engine e)');
  });
});
