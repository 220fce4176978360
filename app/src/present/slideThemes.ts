// The slide colour schemes: chosen in the share panel before anything is drawn,
// so they load with it (the drawing code loads on the first export).

export interface SlideTheme {
  background: string;
  panel: string;
  border: string;
  ink: string;
  muted: string;
  grid: string;
  axis: string;
  /** Line width factor (the projector profile's thick lines). */
  lineScale: number;
  /** A dark background: dark neutral series colours are drawn light. */
  dark: boolean;
}

export const SLIDE_THEMES: Record<'light' | 'dark' | 'projector', SlideTheme> = {
  light: { background: '#f4f6f9', panel: '#ffffff', border: '#d8dee6', ink: '#14202e', muted: '#5b6b7d', grid: '#eef1f4', axis: '#9aa7b5', lineScale: 1.5, dark: false },
  dark: { background: '#10161e', panel: '#19212c', border: '#3a4757', ink: '#e6edf5', muted: '#a9b6c4', grid: '#263140', axis: '#6b7c90', lineScale: 1.5, dark: true },
  projector: { background: '#ffffff', panel: '#ffffff', border: '#555555', ink: '#000000', muted: '#222222', grid: '#c4c9cf', axis: '#000000', lineScale: 2.5, dark: false },
};
