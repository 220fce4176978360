// "Open results from the CLI" (issue 27): a file input and a drop zone
// that put a sweep file written by `sawtooth sweep` or `sawtooth merge`
// on the lab's charts as if the sweep had run here. The engine reads and
// checks the file in the lab service's worker, so a large one never holds
// up the page; a refused file changes nothing and its reason is shown.

import { CodeText } from '../ui/CodeText';
import { useId, useRef, useState, type DragEvent } from 'react';
import type { Lab } from '../engine/generated/labs';
import { dropProblem, fileSizeProblem, outcomeText, sweepCommand } from './openResults';
import type { OpenFileOutcome, SweepStore } from './sweepStore';

type OpenState = { state: 'idle' } | { state: 'reading'; file: string } | { state: 'opened' | 'refused'; file: string; out: OpenFileOutcome };

export function OpenResults({ store, lab, quick, blocked }: { store: SweepStore; lab: Lab; quick: boolean; blocked: string | null }) {
  const [st, setSt] = useState<OpenState>({ state: 'idle' });
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const busy = st.state === 'reading';
  const disabled = busy || blocked !== null;

  const open = async (file: File) => {
    const refuse = (message: string) => setSt({ state: 'refused', file: file.name, out: { ok: false, line: null, message } });
    const tooBig = fileSizeProblem(file.size);
    if (tooBig) return refuse(tooBig);
    setSt({ state: 'reading', file: file.name });
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      return refuse(`the browser could not read it (${e instanceof Error ? e.message : String(e)})`);
    }
    const out = await store.openFile(file.name, text);
    setSt({ state: out.ok ? 'opened' : 'refused', file: file.name, out });
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = Array.from(e.dataTransfer.files);
    const problem = dropProblem(files.length);
    if (problem) {
      setSt({ state: 'refused', file: 'The drop', out: { ok: false, line: null, message: problem } });
      return;
    }
    void open(files[0]);
  };

  return (
    <div className="open-results" data-testid="open-results" data-state={st.state}>
      <h4 id={`${id}-title`}>Open results from the CLI</h4>
      <p className="hint">
        A sweep file written by <code>{sweepCommand(lab, quick)}</code> or by <code>sawtooth merge</code> (which joins a sweep run in shards across
        several machines, as the project's scale-out guide describes) is shown here exactly as a sweep run in this page, if the same engine build wrote it. The file does not carry the engine’s
        flags for runs that went wrong: run the sweep here to see those.
      </p>
      <div
        className={over ? 'open-results-drop over' : 'open-results-drop'}
        data-testid="open-results-drop"
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <label htmlFor={`${id}-input`}>Choose a sweep CSV</label>{' '}
        <input
          id={`${id}-input`}
          ref={input}
          type="file"
          accept=".csv,text/csv,text/plain"
          disabled={disabled}
          aria-describedby={`${id}-status`}
          data-testid="open-results-input"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            // The same file can be chosen again (after an edit, say).
            e.currentTarget.value = '';
            if (f) void open(f);
          }}
        />{' '}
        <span className="muted">or drop it here.</span>
      </div>
      <p id={`${id}-status`} className="open-results-status" role="status" aria-live="polite" data-testid="open-results-status">
        {blocked ?? (st.state === 'reading' ? `Reading ${st.file}…` : st.state === 'opened' ? <CodeText text={outcomeText(st.file, st.out)} /> : '')}
      </p>
      {st.state === 'refused' && !st.out.ok && (
        <p className="open-results-error" role="alert" data-testid="open-results-error" data-line={st.out.line ?? ''}>
          <CodeText text={outcomeText(st.file, st.out)} />
        </p>
      )}
    </div>
  );
}
