// A glossary tip: a small "?" button that shows a definition. It opens on
// hover, on keyboard focus and on click; a click pins it open (a click on a
// tip opened by hover or focus keeps it open, a click on a pinned tip closes
// it); Escape closes it (focus returns to the button) and so do a click or a
// focus outside it. The definition is the button's description for screen
// readers (aria-describedby, role=tooltip) whether or not it is shown.
//
// The tip is rendered in a portal on document.body with fixed positioning
// (placeTip in tipPosition.ts), so no scrolling or overflow-hidden ancestor
// (the scenario sidebar, a table's scroll box) can clip it, and it is kept
// inside the viewport: flipped above the button when it does not fit below,
// shifted sideways at the window's edges.

import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { GLOSSARY, type GlossaryId } from '../lab/glossary';
import { placeTip } from './tipPosition';

/** How long a tip opened by hover stays after the pointer leaves (time to move onto the tip). */
const HOVER_CLOSE_MS = 120;

interface TipState {
  hover: boolean;
  focus: boolean;
  pinned: boolean;
}
const CLOSED: TipState = { hover: false, focus: false, pinned: false };

/** `question`: the button's accessible name where "What is LABEL?" does not read (default "What is LABEL?"). */
export function Tip({ id, text, label, question }: { id?: GlossaryId; text?: string; label?: string; question?: string }) {
  const uid = useId();
  const tipId = `${uid}-tip`;
  const [state, setState] = useState<TipState>(CLOSED);
  const open = state.hover || state.focus || state.pinned;
  const button = useRef<HTMLButtonElement>(null);
  const body = useRef<HTMLSpanElement>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Set while the tip moves focus back to its button (that focus must not reopen it). */
  const refocusing = useRef(false);
  const entry = id ? GLOSSARY[id] : null;
  const content = text ?? entry?.text ?? '';
  const name = label ?? entry?.term ?? 'this';

  const cancelHoverClose = () => {
    if (hoverTimer.current) clearTimeout(hoverTimer.current);
    hoverTimer.current = null;
  };
  const hoverIn = () => {
    cancelHoverClose();
    setState((s) => (s.hover ? s : { ...s, hover: true }));
  };
  const hoverOut = () => {
    cancelHoverClose();
    hoverTimer.current = setTimeout(() => {
      hoverTimer.current = null;
      setState((s) => (s.hover ? { ...s, hover: false } : s));
    }, HOVER_CLOSE_MS);
  };
  useEffect(() => cancelHoverClose, []);

  const close = useCallback((refocus: boolean) => {
    if (hoverTimer.current) clearTimeout(hoverTimer.current);
    hoverTimer.current = null;
    setState(CLOSED);
    const b = button.current;
    if (refocus && b && document.activeElement !== b) {
      refocusing.current = true;
      try {
        b.focus();
      } finally {
        refocusing.current = false;
      }
    }
  }, []);

  // Position: measured before paint, and again while the page or a scroll box scrolls or the window resizes.
  const place = useCallback(() => {
    const b = button.current;
    const t = body.current;
    if (!b || !t) return;
    t.style.left = '0px';
    t.style.top = '0px';
    const tr = b.getBoundingClientRect();
    const size = t.getBoundingClientRect();
    const vw = document.documentElement.clientWidth || window.innerWidth;
    const vh = document.documentElement.clientHeight || window.innerHeight;
    const p = placeTip({ left: tr.left, top: tr.top, width: tr.width, height: tr.height }, { width: size.width, height: size.height }, { width: vw, height: vh });
    t.style.left = `${p.left}px`;
    t.style.top = `${p.top}px`;
    t.style.setProperty('--tip-arrow-x', `${p.arrowX}px`);
    t.dataset.side = p.side;
  }, []);
  useLayoutEffect(() => {
    if (open) place();
  }, [open, place, content]);

  useEffect(() => {
    if (!open) return;
    const inside = (n: EventTarget | null) => n instanceof Node && (button.current?.contains(n) || body.current?.contains(n));
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // The key is spent on this tip (a running simulation's Escape-to-stop must not also fire).
      e.preventDefault();
      // Focus returns to the button when the tip was opened from it (focus, click), not when a hover opened it while focus was elsewhere.
      const refocus = state.pinned || state.focus || document.activeElement === button.current;
      close(refocus);
    };
    const onPointerDown = (e: PointerEvent) => {
      if (!inside(e.target)) close(false);
    };
    const onFocusIn = (e: FocusEvent) => {
      if (!inside(e.target)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('focusin', onFocusIn);
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('focusin', onFocusIn);
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, state.pinned, state.focus, close, place]);

  const tip = (
    <span
      ref={body}
      id={tipId}
      role="tooltip"
      className={open ? 'tip-body open' : 'tip-body'}
      hidden={!open}
      data-open-by={open ? (['hover', 'focus', 'pinned'] as const).filter((k) => state[k]).join(' ') : undefined}
      onMouseEnter={hoverIn}
      onMouseLeave={hoverOut}
    >
      {entry && <strong>{entry.term}: </strong>}
      {content}
    </span>
  );

  return (
    <span className="tip">
      <button
        ref={button}
        type="button"
        className="tip-button"
        aria-label={question ?? `What is ${name}?`}
        aria-describedby={tipId}
        aria-expanded={open}
        data-glossary={id}
        onMouseEnter={hoverIn}
        onMouseLeave={hoverOut}
        onFocus={() => {
          if (!refocusing.current) setState((s) => ({ ...s, focus: true }));
        }}
        onBlur={() => setState((s) => ({ ...s, focus: false }))}
        onClick={() =>
          // Toggle: a closed tip opens pinned, a tip open by hover or focus is pinned (stays open), a pinned tip closes.
          setState((s) => (s.pinned ? CLOSED : { ...s, pinned: true }))
        }
      >
        ?
      </button>
      {typeof document !== 'undefined' ? createPortal(tip, document.body) : tip}
    </span>
  );
}
