// Presentation mode's bar: full screen, the keyboard shortcuts, and the way
// back to the normal page.

import { useEffect, useRef } from 'react';
import { toggleFullscreen, useFullscreen } from './fullscreen';
import { keyTarget, shortcutFor, SHORTCUTS, type PresentPage } from './shortcuts';

/** Esc (the `exit` shortcut) leaves presentation mode, as the bar's Exit button does. */
function useExitKey(page: PresentPage, onExit: () => void): void {
  const exit = useRef(onExit);
  exit.current = onExit;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (shortcutFor(page, { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target: keyTarget(e.target) }) !== 'exit') return;
      e.preventDefault();
      exit.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page]);
}

export function PresentBar({ page, onExit }: { page: PresentPage; onExit(): void }) {
  const fullscreen = useFullscreen();
  const keys = SHORTCUTS.filter((s) => s.page === page || s.page === 'both');
  useExitKey(page, onExit);
  return (
    <div className="present-bar" role="group" aria-label="Presentation" data-testid="present-bar">
      <button type="button" className="share-button" onClick={() => void toggleFullscreen()} aria-pressed={fullscreen} aria-keyshortcuts="F" data-testid="present-fullscreen">
        Full screen
      </button>
      <details className="present-keys">
        <summary>Keys</summary>
        <dl aria-label="Keyboard shortcuts" data-testid="present-keys">
          {keys.map((s) => (
            <div key={s.action}>
              <dt>{s.label}</dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
      </details>
      <button type="button" className="share-button" onClick={onExit} aria-keyshortcuts="Escape" data-testid="present-exit">
        Exit presentation
      </button>
    </div>
  );
}
