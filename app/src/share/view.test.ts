import { describe, expect, it } from 'vitest';
import { escapeAttr, shareUrl } from './links';
import { decodeScenario } from './urlCodec';
import { engineDefaults } from './testing/defaults';
import { checkNames, DEFAULT_VIEW, encodeView, isFitted, parseFrame, parseOrigin, parseView } from './view';

describe('view options', () => {
  it('reads embed, charts, controls, profile and origin', () => {
    const { view, notices } = parseView('?embed=1&charts=cwnd,throughput&controls=rtt,window&profile=projector&origin=https%3A%2F%2Fslides.example.org');
    expect(notices).toEqual([]);
    expect(view).toEqual({ ...DEFAULT_VIEW, embed: true, charts: ['cwnd', 'throughput'], controls: ['rtt', 'window'], profile: 'projector', theme: 'projector', targetOrigin: 'https://slides.example.org' });
    expect(parseView('').view).toEqual(DEFAULT_VIEW);
    expect(parseView(`?${encodeView(view)}`).view).toEqual(view);
  });

  it('ignores hostile values with a notice', () => {
    const r = parseView('?embed=<b>&charts=<script>,cwnd&profile=javascript:alert(1)&origin=javascript:alert(1)');
    // A bad origin= posts nothing (never falls back to any parent).
    expect(r.view).toEqual({ ...DEFAULT_VIEW, charts: ['cwnd'], targetOrigin: null });
    expect(r.notices).toHaveLength(4);
    expect(parseOrigin('https://a.example/path')).toBeNull();
    expect(parseOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    const notes: string[] = [];
    expect(checkNames('charts', ['cwnd', 'bogus'], ['cwnd', 'throughput'], notes)).toEqual(['cwnd']);
    expect(notes[0]).toMatch(/charts=bogus/);
    // A list the page knows none of, or an empty one, is the page's default, never "show nothing".
    expect(checkNames('controls', ['nope'], ['rtt', 'window'], notes)).toBeNull();
    expect(notes[1]).toBe("Ignored controls=nope: not on this page (known: rtt, window); the page's default controls are shown.");
    expect(checkNames('charts', [], ['cwnd'], notes)).toBeNull();
  });

  it('names a page view it does not have', () => {
    expect(parseView('?view=labs').notices).toEqual([]);
    expect(parseView('?view=bogus').notices).toEqual(['Ignored view=bogus: expected lab or labs.']);
  });
});

describe('origin=', () => {
  it('accepts https origins, and http only on a loopback host', () => {
    expect(parseOrigin('https://slides.example.org')).toBe('https://slides.example.org');
    expect(parseOrigin('https://slides.example.org/')).toBe('https://slides.example.org');
    expect(parseOrigin('https://slides.example.org:8443')).toBe('https://slides.example.org:8443');
    expect(parseOrigin('http://127.0.0.1:4173')).toBe('http://127.0.0.1:4173');
    expect(parseOrigin('http://[::1]:4173')).toBe('http://[::1]:4173');
    for (const bad of ['http://slides.example.org', 'http://localhost.example.org', 'ftp://slides.example.org', 'https://user@slides.example.org', 'https://slides.example.org/deck', 'https://slides.example.org?x=1', 'slides.example.org', '*', 'null', '', 'not a url'])
      expect(parseOrigin(bad)).toBeNull();
  });

  it('names a rejected origin in a notice and sends no messages', () => {
    for (const bad of ['http://slides.example.org', 'garbage']) {
      const r = parseView(`?embed=1&origin=${encodeURIComponent(bad)}`);
      expect(r.view.targetOrigin).toBeNull();
      expect(r.notices).toHaveLength(1);
      expect(r.notices[0]).toContain(`origin=${bad}`);
      expect(r.notices[0]).toMatch(/https origin.*not sent/);
      expect(encodeView(r.view)).toBe('embed=1');
    }
    const long = parseView(`?origin=${'x'.repeat(500)}`);
    expect(long.notices[0].length).toBeLessThan(300);
    const ok = parseView('?origin=https%3A%2F%2Fslides.example.org');
    expect(ok).toEqual({ view: { ...DEFAULT_VIEW, targetOrigin: 'https://slides.example.org' }, notices: [] });
  });
});

describe('links', () => {
  const d = engineDefaults();
  it('keep the page path (any base path) and reopen the scenario', () => {
    const s = { ...d, seed: 99, rtt_ms: 80 };
    const url = shareUrl('https://host.example/courses/tcp/sawtooth/?old=1#x', s, d);
    expect(url).toBe('https://host.example/courses/tcp/sawtooth/?v=2&prof=linux-2.4&alg=reno&rtt=80&rate=1G&buf=1000&txq=100&win=16M&mtu=9000&dur=20&seed=99');
    expect(decodeScenario(new URL(url).search, d).scenario).toEqual(s);
  });

  it('escapes attribute text (embed code: embedCode.test.ts)', () => {
    expect(escapeAttr('"><script>')).toBe('&quot;&gt;&lt;script&gt;');
  });
});

describe('theme, autoplay, speed, present and frame', () => {
  it('reads each of them and writes them back', () => {
    const { view, notices } = parseView('?embed=1&theme=dark&autoplay=1&speed=2.5&frame=1280x720');
    expect(notices).toEqual([]);
    expect(view).toMatchObject({ theme: 'dark', profile: 'default', autoplay: true, speed: 2.5, frame: { width: 1280, height: 720 }, present: false });
    expect(parseView(`?${encodeView(view)}`).view).toEqual(view);
  });

  it('keeps profile=projector as the older name of theme=projector', () => {
    expect(parseView('?profile=projector').view).toMatchObject({ theme: 'projector', profile: 'projector' });
    expect(parseView('?theme=projector').view).toMatchObject({ theme: 'projector', profile: 'projector' });
    expect(encodeView(parseView('?profile=projector').view)).toBe('theme=projector');
  });

  it('presents in the projector profile unless the link chose a theme', () => {
    expect(parseView('?present=1').view).toMatchObject({ present: true, theme: 'projector' });
    expect(parseView('?present=1&theme=light').view).toMatchObject({ present: true, theme: 'light', profile: 'default' });
    expect(isFitted(parseView('?present=1').view)).toBe(true);
    expect(isFitted(parseView('?embed=1').view)).toBe(true);
    expect(isFitted(parseView('').view)).toBe(false);
  });

  it('ignores values it cannot use, with a notice each', () => {
    const r = parseView('?theme=neon&autoplay=yes&speed=1000&present=maybe&frame=99x99');
    expect(r.view).toEqual(DEFAULT_VIEW);
    expect(r.notices).toHaveLength(5);
    // Each names the value it ignored, as scenario parameters' notices do.
    for (const key of ['theme=neon', 'autoplay=yes', 'speed=1000', 'present=maybe', 'frame=99x99']) expect(r.notices.some((n) => n.startsWith(`Ignored ${key}: expected`))).toBe(true);
    expect(parseView('?speed=').notices).toEqual(['Ignored speed=: expected a playback speed from 0.1 to 100 (× real time).']);
    expect(parseView(`?theme=${'x'.repeat(500)}`).notices[0].length).toBeLessThan(120);
  });

  it('reads frame sizes in range only', () => {
    expect(parseFrame('1920x1080')).toEqual({ width: 1920, height: 1080 });
    expect(parseFrame('480x270')).toEqual({ width: 480, height: 270 });
    for (const bad of ['1920', '1920x', 'x1080', '100x100', '5000x3000', '1920x1080x2', '-480x270', '480 x 270']) expect(parseFrame(bad)).toBeNull();
  });
});
