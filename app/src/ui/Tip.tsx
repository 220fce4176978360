// A glossary tip: a small "?" button that shows a definition on hover or
// focus (Escape closes it). The definition is also the button's description
// for screen readers.

import { useId, useState } from 'react';
import { GLOSSARY, type GlossaryId } from '../lab/glossary';

export function Tip({ id, text, label }: { id?: GlossaryId; text?: string; label?: string }) {
  const uid = useId();
  const [open, setOpen] = useState(false);
  const entry = id ? GLOSSARY[id] : null;
  const body = text ?? entry?.text ?? '';
  const name = label ?? entry?.term ?? 'this';
  return (
    <span className="tip" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className="tip-button"
        aria-label={`What is ${name}?`}
        aria-describedby={`${uid}-tip`}
        aria-expanded={open}
        data-glossary={id}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      >
        ?
      </button>
      <span id={`${uid}-tip`} role="tooltip" className={open ? 'tip-body open' : 'tip-body'}>
        {entry && <strong>{entry.term}: </strong>}
        {body}
      </span>
    </span>
  );
}
