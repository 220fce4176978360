// JSON.parse keeps the last of two equal keys without a word, so a scenario
// file with "rtt_ms" twice would run with the second. The engine refuses
// such documents (core/src/strict_json.rs); an upload is parsed here before
// it reaches the engine, so the page checks too. Call on text JSON.parse
// accepted.

type Frame = { kind: 'object'; path: string; keys: Set<string>; expectKey: boolean; key: string } | { kind: 'array'; path: string; index: number };

function childPath(frame: Frame | undefined): string {
  if (!frame) return '';
  if (frame.kind === 'array') return `${frame.path}[${frame.index}]`;
  return frame.path ? `${frame.path}.${frame.key}` : frame.key;
}

/** The path (`hosts[0].nic_bps`) of the first key given twice in one object, or null. */
export function firstDuplicateKey(text: string): string | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return top.path ? `${top.path}.${key}` : key;
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      const path = childPath(top);
      stack.push(c === '{' ? { kind: 'object', path, keys: new Set(), expectKey: true, key: '' } : { kind: 'array', path, index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',' && top) {
      if (top.kind === 'object') top.expectKey = true;
      else top.index++;
    }
  }
  return null;
}
