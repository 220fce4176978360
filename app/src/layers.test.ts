// The app's layers (issue 13): every import points down or sideways within
// its own folder, never up, so no two folders import each other. Tests and
// test fakes may reach anywhere.

import { describe, expect, it } from 'vitest';

/** Every source file's text, keyed by its path relative to app/src ("./lab/runStore.ts"). */
const SOURCES = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/testing/**', '!./**/pkg/**', '!./**/*.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Lowest first: each folder may import its own files and the folders before it. */
export const LAYERS = [
  'engine', // the wasm facade, workers, generated types
  'model', // derived quantities (capacity, MSS, BDP)
  'charts', // chart math and chart components
  'lab', // the lab page's state: runs, scenario, controls, units
  'ui', // the lab page's components
  'share', // links, embeds, exports
  'present', // fitted views, presentation mode, slide export
  'guided', // the guided labs
  'pages', // pages composed of all of the above
  '.', // the app shell: App, main, the test hooks
] as const;

/** Resolve `spec` against the folder of `file` (both relative to app/src, "./a/b.ts"). */
function resolvePath(file: string, spec: string): string {
  const parts = file.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** The layer of a path relative to app/src ("./lab/x.ts" → lab; "./App.tsx" → the shell); -1 outside app/src. */
function layerOf(path: string): number {
  if (!path.startsWith('./')) return -1;
  const rest = path.slice(2);
  const top = rest.includes('/') ? rest.split('/')[0] : '.';
  return LAYERS.indexOf(top as (typeof LAYERS)[number]);
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function upwardImports(): string[] {
  const bad: string[] = [];
  for (const [file, text] of Object.entries(SOURCES)) {
    const from = layerOf(file);
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      const to = layerOf(resolvePath(file, spec));
      if (to > from) bad.push(`${file} imports ${spec} (${LAYERS[to]} is above ${LAYERS[from]})`);
    }
  }
  return bad;
}

describe('app layers', () => {
  it('every source file is in a layer', () => {
    const files = Object.keys(SOURCES);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('no import points up a layer (so folders never import each other in a circle)', () => {
    expect(upwardImports()).toEqual([]);
  });
});
