// Presentation mode's keyboard shortcuts: which key does what, on the lab
// page (playback) and in a guided lab (its screens). Pure; usePresentKeys
// listens and performs the action. Keys typed into a field, a slider or a
// select, or the arrows on a focused chart (its cursor), are left alone.

export type ShortcutAction = 'play-pause' | 'step-forward' | 'step-back' | 'restart' | 'fullscreen' | 'next-screen' | 'previous-screen' | 'exit';

export type PresentPage = 'lab' | 'labs';

export interface Shortcut {
  action: ShortcutAction;
  /** KeyboardEvent.key values. */
  keys: readonly string[];
  /** How the help names the keys. */
  label: string;
  what: string;
  page: PresentPage | 'both';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'play-pause', keys: [' ', 'k', 'K'], label: 'Space or K', what: 'play or pause the run', page: 'lab' },
  { action: 'step-forward', keys: ['ArrowRight', '.'], label: '→ or .', what: 'step forward (pauses)', page: 'lab' },
  { action: 'step-back', keys: ['ArrowLeft', ','], label: '← or ,', what: 'step back (pauses)', page: 'lab' },
  { action: 'restart', keys: ['Home', 'r', 'R'], label: 'Home or R', what: 'reset: play again from 0 s', page: 'lab' },
  { action: 'next-screen', keys: ['ArrowRight', 'PageDown', 'n', 'N'], label: '→, Page Down or N', what: 'next screen', page: 'labs' },
  { action: 'previous-screen', keys: ['ArrowLeft', 'PageUp', 'p', 'P'], label: '←, Page Up or P', what: 'previous screen', page: 'labs' },
  { action: 'fullscreen', keys: ['f', 'F'], label: 'F', what: 'full screen on or off', page: 'both' },
  // In full screen the browser takes Esc to leave full screen first.
  { action: 'exit', keys: ['Escape'], label: 'Esc', what: 'leave presentation mode', page: 'both' },
];

/** What the key was pressed on. */
export interface KeyTarget {
  /** Lower-case tag name. */
  tag: string;
  /** The input's type, if an input. */
  type?: string | null;
  editable?: boolean;
  /** Inside a focused chart (which uses the arrow keys for its cursor). */
  inChart?: boolean;
}

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target: KeyTarget;
}

const TYPING_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', 'range', '']);

/** Does the target use this key itself? */
function targetUses(t: KeyTarget, key: string): boolean {
  if (t.editable || t.tag === 'textarea' || t.tag === 'select') return true;
  if (t.tag === 'input') return TYPING_INPUTS.has((t.type ?? '').toLowerCase()) || key === ' ' || key.startsWith('Arrow');
  // A focused button or link activates on Space itself.
  if ((t.tag === 'button' || t.tag === 'a' || t.tag === 'summary') && (key === ' ' || key === 'Enter')) return true;
  // A focused chart moves its cursor with these and hides it with Esc.
  if (t.inChart && (key.startsWith('Arrow') || key === 'Home' || key === '0' || key === 'Escape')) return true;
  return false;
}

export function shortcutFor(page: PresentPage, k: KeyPress): ShortcutAction | null {
  if (k.ctrlKey || k.metaKey || k.altKey) return null;
  if (targetUses(k.target, k.key)) return null;
  const s = SHORTCUTS.find((x) => (x.page === page || x.page === 'both') && x.keys.includes(k.key));
  return s ? s.action : null;
}

/** The key target of a DOM event target. */
export function keyTarget(el: EventTarget | null): KeyTarget {
  if (!(el instanceof Element)) return { tag: '' };
  return {
    tag: el.tagName.toLowerCase(),
    type: el instanceof HTMLInputElement ? el.type : null,
    editable: el instanceof HTMLElement && el.isContentEditable,
    inChart: el.closest('figure.chart') !== null,
  };
}
