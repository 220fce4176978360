// The colour theme on screen: the link's theme=, else the system's light or
// dark (followed as it changes). <html data-theme> carries it for the CSS
// (dark.css, share.css), so a link can force dark or light whatever the
// system prefers.

import { useEffect, useState } from 'react';
import type { Theme } from './view';

export type ShownTheme = 'light' | 'dark' | 'projector';

export function resolveTheme(theme: Theme, systemDark: boolean): ShownTheme {
  if (theme === 'auto') return systemDark ? 'dark' : 'light';
  return theme;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Does the system prefer dark colours (updated when it changes)? */
export function useSystemDark(): boolean {
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const q = matchMedia(DARK_QUERY);
    const on = () => setDark(q.matches);
    on();
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return dark;
}
