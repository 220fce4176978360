// Every source file lives in one of the app's layers (app/layers.json) or is
// the app shell at app/src/*.ts[x]. The import rules between layers (no
// cycles, nothing pointing up) are checked by dependency-cruiser
// (.dependency-cruiser.cjs, run by scripts/test.sh); a file outside every
// layer would escape them, hence this test.

import { describe, expect, it } from 'vitest';
import layerList from '../layers.json';

const LAYERS: string[] = layerList.layers.map((l) => l.folder);

const FILES = Object.keys(
  import.meta.glob(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/testing/**', '!./**/pkg/**', '!./**/*.d.ts']),
);

/** The layer a path relative to app/src belongs to ("./lab/x.ts" → "lab"; "./App.tsx" → "."), or null. */
function layerOf(path: string): string | null {
  const rest = path.slice(2);
  if (!rest.includes('/')) return '.';
  const top = rest.split('/')[0];
  return LAYERS.includes(top) ? top : null;
}

describe('app layers', () => {
  it('every source file is in a layer', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.filter((f) => layerOf(f) === null)).toEqual([]);
  });

  it('the layer list names existing folders, lowest first, each once', () => {
    expect(new Set(LAYERS).size).toBe(LAYERS.length);
    for (const layer of LAYERS) expect(FILES.some((f) => layerOf(f) === layer), layer).toBe(true);
    expect(LAYERS[0]).toBe('engine');
    expect(LAYERS[LAYERS.length - 1]).toBe('pages');
  });
});
