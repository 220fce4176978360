// JSON.parse keeps the last of two equal keys without a word, so a scenario
// file with "rtt_ms" twice would run with the second. The engine refuses
// such documents (core/src/strict_json.rs); an upload is parsed here before
// it reaches the engine, so the page checks too. Call on text JSON.parse
// accepted.
//
// The same pass refuses nesting deeper than a scenario can be: the
// engine's JSON reader stops at 128 levels, and a document nested some
// thousands deep overflows the stack of structuredClone or postMessage
// before it gets there.
//
// One pass over the text, linear in its length whatever its shape (a
// million keys in one object, nesting a million deep): each key is read
// once and decoded only when it holds an escape, and the path is put
// together only for the duplicate it names.

type Frame = { object: true; keys: Set<string>; expectKey: boolean; key: string } | { object: false; index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** `hosts[0].nic_bps`: the path of `key` in the innermost of `stack`. */
function pathOf(stack: Frame[], key: string): string {
  let path = '';
  for (let d = 0; d < stack.length - 1; d++) {
    const f = stack[d];
    path += f.object ? `${path ? '.' : ''}${f.key}` : `[${f.index}]`;
  }
  return path ? `${path}.${key}` : key;
}

/** Deepest nesting of objects and arrays read (a scenario has 6 levels: the document, hosts, a host, flows, a flow, params). */
export const MAX_JSON_DEPTH = 64;

export type JsonShapeProblem =
  /** A key given twice in one object, by its path (`hosts[0].nic_bps`). */
  | { kind: 'duplicate'; path: string }
  /** Objects and arrays nested more than `maxDepth` deep. */
  | { kind: 'deep'; maxDepth: number };

/** A sentence about `p` for a notice ("gives … more than once", "is nested more than 64 levels deep"). */
export function shapeProblemText(p: JsonShapeProblem, clip: (s: string, max: number) => string): string {
  return p.kind === 'duplicate'
    ? `gives ${clip(p.path, 80)} more than once in the same object; give each key once`
    : `is nested more than ${p.maxDepth} levels deep, far deeper than any scenario`;
}

/** The first key given twice in one object, or nesting deeper than `maxDepth`, whichever comes first; null if neither. */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH): JsonShapeProblem | null {
  const stack: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          j++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (top.keys.has(key)) return { kind: 'duplicate', path: pathOf(stack, key) };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return { kind: 'deep', maxDepth };
      stack.push(c === 0x7b ? { object: true, keys: new Set(), expectKey: true, key: '' } : { object: false, index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (!top) continue;
      if (top.object) top.expectKey = true;
      else top.index++;
    }
  }
  return null;
}
