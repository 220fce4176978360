// The source papers as students cite them: author, title, institution and
// year (from the engine's paper catalogue), never the seed file's name.

import type { Paper, PaperFile, PaperSource } from '../engine/generated/labs';

export function paperOf(file: Pick<PaperFile, 'papers'>, seed: string): Paper | undefined {
  return file.papers.find((p) => p.seed === seed);
}

/** "Long (Sandia, 2003)"; a paper missing from the catalogue is "an uncatalogued source". */
export function shortCite(file: Pick<PaperFile, 'papers'>, seed: string): string {
  return paperOf(file, seed)?.short ?? 'an uncatalogued source';
}

/** Authors, “Title”, publisher, year. */
export function fullCite(p: Paper): string {
  return `${p.authors}, “${p.title}”, ${p.publisher}, ${p.year}`;
}

/** Where a published value comes from: "Long (Sandia, 2003), Fig. 11". */
export function sourceCite(file: Pick<PaperFile, 'papers'>, source: PaperSource): string {
  return `${shortCite(file, source.seed)}, ${source.at}`;
}
