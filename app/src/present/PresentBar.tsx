// Presentation mode's bar: full screen, the keyboard shortcuts, and the way
// back to the normal page.

import { toggleFullscreen, useFullscreen } from './fullscreen';
import { SHORTCUTS, type PresentPage } from './shortcuts';

export function PresentBar({ page, onExit }: { page: PresentPage; onExit(): void }) {
  const fullscreen = useFullscreen();
  const keys = SHORTCUTS.filter((s) => s.page === page || s.page === 'both');
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
      <button type="button" className="share-button" onClick={onExit} data-testid="present-exit">
        Exit presentation
      </button>
    </div>
  );
}
