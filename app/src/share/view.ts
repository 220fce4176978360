// View options of the page (not of the scenario), read from the URL:
//
//   ?embed=1                      embed mode: no page chrome, fills its frame
//   &charts=cwnd,throughput       the charts to show (default: all)
//   &controls=rtt,window          the controls to show (embed default: none)
//   &profile=projector            colour profile: default | projector
//   &theme=dark                   light | dark | projector (default: the system's light or dark)
//   &autoplay=1                   play each run from 0 s as it comes (at &speed=)
//   &speed=2                      playback speed, × real time (0.1 … 100)
//   &present=1                    presentation mode: fitted, projector colours, big type, shortcuts
//   &frame=1280x720               the frame an embed was made for (a plain link shows that box)
//   &origin=https://slides.example  the only origin embed messages are posted to
//
// origin= must be an https origin (http only on a loopback host, for local
// test pages); anything else is named in a notice and embed messages are
// then not posted at all: a link that asked for one parent never falls back
// to any parent.
//
// Unknown chart or control names are ignored with a notice once the page
// knows which exist (checkNames).

import { VIEWS } from '../lab/views';

export type ColourProfile = 'default' | 'projector';
/** auto: the system's light or dark; projector: the projector profile (always light). */
export type Theme = 'auto' | 'light' | 'dark' | 'projector';
export const THEMES: readonly Theme[] = ['light', 'dark', 'projector'];

export interface FrameSize {
  width: number;
  height: number;
}
/** Frame sizes accepted by frame= (the builder's range). */
export const FRAME_MIN: FrameSize = { width: 320, height: 180 };
export const FRAME_MAX: FrameSize = { width: 3840, height: 2160 };

export interface ViewOptions {
  embed: boolean;
  /** null: every chart. */
  charts: string[] | null;
  /** null: the page's default (all in the lab page, none in embed mode). */
  controls: string[] | null;
  /** 'projector' exactly when theme is (profile= is the older name of theme=projector). */
  profile: ColourProfile;
  theme: Theme;
  /** Play each run from 0 s at `speed` (else the charts follow the engine live). */
  autoplay: boolean;
  /** Playback speed, × real time; null: the page's default (1×). */
  speed: number | null;
  /** Presentation mode. */
  present: boolean;
  /** The frame size an embed was made for; null: whatever the window is. */
  frame: FrameSize | null;
  /**
   * Target origin of postMessage to the parent: '*' unless ?origin= names
   * one; null when ?origin= was not a valid origin (nothing is posted).
   */
  targetOrigin: string | null;
}

export const DEFAULT_VIEW: ViewOptions = {
  embed: false,
  charts: null,
  controls: null,
  profile: 'default',
  theme: 'auto',
  autoplay: false,
  speed: null,
  present: false,
  frame: null,
  targetOrigin: '*',
};

/** Is the page laid out to fill its window (embed and presentation modes)? */
export function isFitted(view: Pick<ViewOptions, 'embed' | 'present'>): boolean {
  return view.embed || view.present;
}

const SPEED_MIN = 0.1;
const SPEED_MAX = 100;

/** A link's value as a notice quotes it: as text, at most 40 characters. */
export function shownValue(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function flag(key: string, text: string, notices: string[]): boolean | null {
  if (text === '1' || text === 'true' || text === '') return true;
  if (text === '0' || text === 'false') return false;
  notices.push(`Ignored ${key}=${shownValue(text)}: expected 1 or 0.`);
  return null;
}

/** "1280x720" → the size, within FRAME_MIN…FRAME_MAX; else null. */
export function parseFrame(text: string): FrameSize | null {
  const m = /^(\d{3,4})[x×](\d{3,4})$/.exec(text.trim());
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < FRAME_MIN.width || height < FRAME_MIN.height || width > FRAME_MAX.width || height > FRAME_MAX.height) return null;
  return { width, height };
}

const NAME_RE = /^[a-z0-9_-]{1,32}$/;

function names(key: string, text: string, notices: string[]): string[] | null {
  const items = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const good = items.filter((t) => NAME_RE.test(t));
  if (good.length !== items.length) notices.push(`Ignored part of ${key}=: only names like cwnd or throughput, separated by commas, are read.`);
  return good.length > 0 || items.length === 0 ? [...new Set(good)] : null;
}

/** Hosts on which an http:// origin is accepted (a test page on this machine). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A web origin exactly as written, "https://host[:port]" (a trailing slash
 * is allowed), or "http://host[:port]" for a loopback host; else null.
 */
export function parseOrigin(text: string): string | null {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  const secure = u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK_HOSTS.includes(u.hostname));
  if (!secure) return null;
  return u.origin === text.replace(/\/$/, '') ? u.origin : null;
}

/** The notice for an origin= that is not accepted (the value shortened, shown as text). */
export function originNotice(text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 77)}…` : text;
  return `Ignored origin=${shown}: it must be an https origin such as https://slides.example.org (http only for localhost, 127.0.0.1 or [::1]); embed messages are not sent.`;
}

export function parseView(search: string): { view: ViewOptions; notices: string[] } {
  const notices: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search.length > 100_000 ? '' : search);
  } catch {
    return { view: { ...DEFAULT_VIEW }, notices };
  }
  const view: ViewOptions = { ...DEFAULT_VIEW };
  const page = params.get('view');
  if (page !== null && !VIEWS.some((v) => v.id === page)) notices.push(`Ignored view=${shownValue(page)}: expected ${VIEWS.map((v) => v.id).join(' or ')}.`);
  const embed = params.get('embed');
  if (embed !== null) view.embed = flag('embed', embed, notices) ?? false;
  const charts = params.get('charts');
  if (charts !== null) view.charts = names('charts', charts, notices);
  const controls = params.get('controls');
  if (controls !== null) view.controls = names('controls', controls, notices);
  const profile = params.get('profile');
  if (profile !== null) {
    if (profile === 'projector') view.theme = 'projector';
    else if (profile !== 'default') notices.push(`Ignored profile=${shownValue(profile)}: expected projector or default.`);
  }
  const theme = params.get('theme');
  if (theme !== null) {
    if ((THEMES as readonly string[]).includes(theme)) view.theme = theme as Theme;
    else notices.push(`Ignored theme=${shownValue(theme)}: expected light, dark or projector.`);
  }
  const present = params.get('present');
  if (present !== null) view.present = flag('present', present, notices) ?? false;
  // Presentation mode is for a projector unless the link chose a theme.
  if (view.present && theme === null && profile === null) view.theme = 'projector';
  view.profile = view.theme === 'projector' ? 'projector' : 'default';
  const autoplay = params.get('autoplay');
  if (autoplay !== null) view.autoplay = flag('autoplay', autoplay, notices) ?? false;
  const speed = params.get('speed');
  if (speed !== null) {
    const v = Number(speed.replace(/x$/i, ''));
    if (speed.trim() !== '' && Number.isFinite(v) && v >= SPEED_MIN && v <= SPEED_MAX) view.speed = v;
    else notices.push(`Ignored speed=${shownValue(speed)}: expected a playback speed from ${SPEED_MIN} to ${SPEED_MAX} (× real time).`);
  }
  const frame = params.get('frame');
  if (frame !== null) {
    view.frame = parseFrame(frame);
    if (!view.frame) notices.push(`Ignored frame=${shownValue(frame)}: expected a size like 1280x720, from ${FRAME_MIN.width}x${FRAME_MIN.height} to ${FRAME_MAX.width}x${FRAME_MAX.height}.`);
  }
  const origin = params.get('origin');
  if (origin !== null) {
    const o = parseOrigin(origin);
    if (o) view.targetOrigin = o;
    else {
      view.targetOrigin = null;
      notices.push(originNotice(origin));
    }
  }
  return { view, notices };
}

/**
 * Keep the names the page knows; a notice lists the others. A list with
 * none the page knows (or none at all) is the page's default (null), not
 * an empty choice: `charts=nope` must not leave the page without charts.
 */
export function checkNames(kind: 'charts' | 'controls', wanted: string[] | null, available: readonly string[], notices: string[]): string[] | null {
  if (wanted === null) return null;
  const known = wanted.filter((w) => available.includes(w));
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length) notices.push(`Ignored ${kind}=${unknown.join(',')}: not on this page (known: ${available.join(', ')})${known.length ? '' : `; the page's default ${kind} are shown`}.`);
  return known.length ? known : null;
}

/** The view part of a query string (for embed links). */
export function encodeView(view: Partial<ViewOptions>): string {
  const out: string[] = [];
  if (view.embed) out.push('embed=1');
  if (view.charts) out.push(`charts=${view.charts.join(',')}`);
  if (view.controls) out.push(`controls=${view.controls.join(',')}`);
  if (view.theme && view.theme !== 'auto') out.push(`theme=${view.theme}`);
  else if (view.profile && view.profile !== 'default') out.push(`profile=${view.profile}`);
  if (view.autoplay) out.push('autoplay=1');
  if (view.speed !== null && view.speed !== undefined) out.push(`speed=${view.speed}`);
  if (view.present) out.push('present=1');
  if (view.frame) out.push(`frame=${view.frame.width}x${view.frame.height}`);
  if (view.targetOrigin && view.targetOrigin !== '*') out.push(`origin=${encodeURIComponent(view.targetOrigin)}`);
  return out.join('&');
}
