// Listens for presentation mode's shortcuts (shortcuts.ts) and performs them.

import { useEffect, useRef } from 'react';
import { toggleFullscreen } from './fullscreen';
import { keyTarget, shortcutFor, type PresentPage, type ShortcutAction } from './shortcuts';

export function usePresentKeys(page: PresentPage, enabled: boolean, perform: (a: ShortcutAction) => void): void {
  const act = useRef(perform);
  act.current = perform;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      // A chart or control that handled the key itself keeps it.
      if (e.defaultPrevented) return;
      const a = shortcutFor(page, { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target: keyTarget(e.target) });
      // Leaving presentation mode is the bar's (PresentBar), on either page.
      if (!a || a === 'exit') return;
      e.preventDefault();
      if (a === 'fullscreen') void toggleFullscreen();
      else act.current(a);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page, enabled]);
}

/** The playback bar's button for each playback shortcut: a shortcut does exactly what its button does. */
const PLAYBACK_BUTTONS: Partial<Record<ShortcutAction, string>> = {
  'play-pause': 'play',
  'step-forward': 'step',
  'step-back': 'step-back',
  restart: 'restart',
};

export function pressPlaybackButton(a: ShortcutAction): void {
  const id = PLAYBACK_BUTTONS[a];
  const b = id ? document.querySelector<HTMLButtonElement>(`[data-testid="playback"] [data-testid="${id}"]`) : null;
  if (b && !b.disabled) b.click();
}
