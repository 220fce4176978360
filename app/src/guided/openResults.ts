// Opening a sweep file from the CLI in a guided lab (issue 27): the words
// and checks around the file input, as plain functions. The engine reads
// and checks the file itself (sawtooth-core's labs/sweep_file.rs, through
// the lab service's worker); here only what the page says.

import type { Lab } from '../engine/generated/labs';
import type { ImportedFrom, OpenFileOutcome } from './sweepStore';

/** The largest file the page reads (a faithful sweep of the largest lab is a few MB). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Why a file is not even read (too large, empty), or null. */
export function fileSizeProblem(bytes: number): string | null {
  if (bytes === 0) return 'the file is empty';
  if (bytes > MAX_FILE_BYTES) return `the file is ${(bytes / 1024 / 1024).toFixed(0)} MB; the page opens sweep files up to ${MAX_FILE_BYTES / 1024 / 1024} MB`;
  return null;
}

/** Why a drop is not one file, or null. */
export function dropProblem(files: number): string | null {
  if (files === 0) return 'nothing was dropped: drop the CSV file itself';
  if (files > 1) return `${files} files were dropped: drop one sweep file (join shards with \`sawtooth merge\` first)`;
  return null;
}

/** The command that writes this lab's sweep file at this scale. */
export function sweepCommand(lab: Lab, quick: boolean): string {
  return `sawtooth sweep ${lab.id}${quick ? ' --quick' : ''} --out ${lab.id}${quick ? '-quick' : ''}.csv`;
}

/** What the page says once a file was opened or refused. */
export function outcomeText(file: string, out: OpenFileOutcome): string {
  if (out.ok) return `Opened ${file}: ${out.runs} run${out.runs === 1 ? '' : 's'} computed by the CLI, shown below.`;
  return `${file} was not opened${out.line !== null ? ` (line ${out.line})` : ''}: ${out.message}.`;
}

/** Where the results on screen came from, in a few words. */
export function importedText(from: ImportedFrom): string {
  if (from.ahead) {
    return `${from.runs} run${from.runs === 1 ? '' : 's'} computed ahead by the CLI (\`sawtooth sweep\`, faithful scale) and shipped with the site, from an engine whose results are this page's (results stamp ${from.stamp})`;
  }
  const scale = from.quick ? 'quick scale' : 'faithful scale';
  const series = from.series.length ? `, series ${from.series.join(', ')} only` : '';
  return `${from.runs} run${from.runs === 1 ? '' : 's'} from ${from.file}, computed by the CLI (${scale}${series}, engine ${from.engine})`;
}
