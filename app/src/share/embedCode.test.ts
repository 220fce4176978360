import { describe, expect, it } from 'vitest';
import { clampFrame, DEFAULT_CHOICE, embedLink, iframeSnippet, inOrder } from './embedCode';
import { engineDefaults } from './testing/defaults';
import { decodeScenario } from './urlCodec';
import { FRAME_MAX, FRAME_MIN, parseView } from './view';

const d = engineDefaults();
const scenario = { ...d, rtt_ms: 40, seed: 7 };
const href = 'https://example.org/sawtooth/?seed=1#x';

describe('embedLink', () => {
  it('carries the scenario and every choice as link parameters', () => {
    const link = embedLink(href, scenario, d, { charts: ['cwnd', 'queues'], controls: ['rtt', 'playback'], theme: 'dark', autoplay: true, speed: 5, size: { kind: 'fixed', width: 1280, height: 720 } });
    expect(link.startsWith('https://example.org/sawtooth/?')).toBe(true);
    const search = new URL(link).search;
    expect(decodeScenario(search, d).scenario).toEqual(scenario);
    const { view, notices } = parseView(search);
    expect(notices).toEqual([]);
    expect(view).toMatchObject({ embed: true, charts: ['cwnd', 'queues'], controls: ['rtt', 'playback'], theme: 'dark', autoplay: true, speed: 5, frame: { width: 1280, height: 720 } });
  });

  it('leaves out what is the default: speed 1, no frame when responsive', () => {
    const link = embedLink(href, scenario, d, { ...DEFAULT_CHOICE, size: { kind: 'responsive', aspect: [16, 9] } });
    const p = new URL(link).searchParams;
    expect(p.get('speed')).toBeNull();
    expect(p.get('frame')).toBeNull();
    expect(p.get('autoplay')).toBeNull();
    expect(p.get('theme')).toBe('projector');
  });
});

describe('iframeSnippet', () => {
  const link = 'https://example.org/?a=1&b="2"';
  it('writes a fixed frame with the link escaped', () => {
    const html = iframeSnippet(link, { kind: 'fixed', width: 960, height: 540 });
    expect(html).toMatch(/^<iframe src="https:\/\/example\.org\/\?a=1&amp;b=&quot;2&quot;" width="960" height="540" title="[^"]+"/);
    // Full screen by the permissions policy alone: with allowfullscreen too, Chromium warns on the host page.
    expect(html).toContain('allow="fullscreen; clipboard-write"');
    expect(html).not.toContain('allowfullscreen');
  });

  it('writes a responsive frame that keeps its aspect ratio', () => {
    const html = iframeSnippet(link, { kind: 'responsive', aspect: [4, 3] });
    expect(html).toMatch(/^<div style="position:relative;width:100%;aspect-ratio:4\/3"><iframe /);
    expect(html).toMatch(/<\/iframe><\/div>$/);
    // The snippet parses back to the link.
    const src = /src="([^"]+)"/.exec(html)![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(src).toBe(link);
  });
});

describe('helpers', () => {
  it('keeps the page’s chart order', () => {
    expect(inOrder(['queues', 'cwnd'], ['cwnd', 'outstanding', 'throughput', 'queues'])).toEqual(['cwnd', 'queues']);
  });

  it('clamps typed frame sizes to what frame= reads', () => {
    expect(clampFrame(100, 5000, FRAME_MIN, FRAME_MAX)).toEqual({ width: FRAME_MIN.width, height: FRAME_MAX.height });
    expect(clampFrame(NaN, 720.4, FRAME_MIN, FRAME_MAX)).toEqual({ width: FRAME_MIN.width, height: 720 });
  });
});
