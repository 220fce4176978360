// Flow colours: the Okabe–Ito palette (safe for the common forms of colour
// blindness), in an order that keeps neighbours distinct; flows past the
// eighth reuse a colour with a dash pattern so no two flows look alike.

export const OKABE_ITO = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#B8A200'] as const;

export function flowColor(flow: number): string {
  return OKABE_ITO[((flow % OKABE_ITO.length) + OKABE_ITO.length) % OKABE_ITO.length];
}

/** Dash pattern telling apart flows that share a colour (undefined = solid). */
export function flowDash(flow: number): number[] | undefined {
  return flow >= OKABE_ITO.length ? [6, 3] : undefined;
}

export const SUM_COLOR = '#3b3b3b';
export const LIMIT_COLOR = '#7a8794';
export const BOTTLENECK_COLOR = '#3b3b3b';

/** Light stand-ins for the dark neutrals (and Okabe–Ito's black) on a dark background. */
const ON_DARK: Record<string, string> = {
  [SUM_COLOR]: '#c9d3de',
  [LIMIT_COLOR]: '#9fb0c2',
  '#000000': '#e6edf5',
};

/** A series colour that stays visible on the dark theme's background. */
export function onDark(color: string): string {
  return ON_DARK[color] ?? color;
}
