// View options of the page (not of the scenario), read from the URL:
//
//   ?embed=1                      embed mode: no page chrome, fills its frame
//   &charts=cwnd,throughput       the charts to show (default: all)
//   &controls=rtt,window          the controls to show (embed default: none)
//   &profile=projector            colour profile: default | projector
//   &origin=https://slides.example  the only origin embed messages are posted to
//
// origin= must be an https origin (http only on a loopback host, for local
// test pages); anything else is named in a notice and embed messages are
// then not posted at all: a link that asked for one parent never falls back
// to any parent.
//
// Unknown chart or control names are ignored with a notice once the page
// knows which exist (checkNames).

export type ColourProfile = 'default' | 'projector';

export interface ViewOptions {
  embed: boolean;
  /** null: every chart. */
  charts: string[] | null;
  /** null: the page's default (all in the lab page, none in embed mode). */
  controls: string[] | null;
  profile: ColourProfile;
  /**
   * Target origin of postMessage to the parent: '*' unless ?origin= names
   * one; null when ?origin= was not a valid origin (nothing is posted).
   */
  targetOrigin: string | null;
}

export const DEFAULT_VIEW: ViewOptions = { embed: false, charts: null, controls: null, profile: 'default', targetOrigin: '*' };

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
  const embed = params.get('embed');
  if (embed !== null) {
    if (embed === '1' || embed === 'true' || embed === '') view.embed = true;
    else if (embed !== '0' && embed !== 'false') notices.push('Ignored embed=: expected 1 or 0.');
  }
  const charts = params.get('charts');
  if (charts !== null) view.charts = names('charts', charts, notices);
  const controls = params.get('controls');
  if (controls !== null) view.controls = names('controls', controls, notices);
  const profile = params.get('profile');
  if (profile !== null) {
    if (profile === 'projector' || profile === 'default') view.profile = profile;
    else notices.push('Ignored profile=: expected projector or default.');
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

/** Keep the names the page knows; a notice lists the others. */
export function checkNames(kind: 'charts' | 'controls', wanted: string[] | null, available: readonly string[], notices: string[]): string[] | null {
  if (wanted === null) return null;
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length) notices.push(`Ignored ${kind}=${unknown.join(',')}: not on this page (known: ${available.join(', ')}).`);
  return wanted.filter((w) => available.includes(w));
}

/** The view part of a query string (for embed links). */
export function encodeView(view: Partial<ViewOptions>): string {
  const out: string[] = [];
  if (view.embed) out.push('embed=1');
  if (view.charts) out.push(`charts=${view.charts.join(',')}`);
  if (view.controls) out.push(`controls=${view.controls.join(',')}`);
  if (view.profile && view.profile !== 'default') out.push(`profile=${view.profile}`);
  if (view.targetOrigin && view.targetOrigin !== '*') out.push(`origin=${encodeURIComponent(view.targetOrigin)}`);
  return out.join('&');
}
