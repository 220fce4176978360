import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SimClaims } from './SimClaims';
import { claimsView, waitingText } from './simClaims';
import { claimOutcome } from './testing/fixtures';

// .test.ts (the unit-test glob), so no JSX.
const html = (claims: Parameters<typeof SimClaims>[0]['claims']) => renderToStaticMarkup(createElement(SimClaims, { claims }));

describe('SimClaims', () => {
  it('says nothing for a lab without sentences, or before the engine has answered', () => {
    expect(html([])).toBe('');
    expect(html(null)).toBe('');
  });

  it('before the runs finish: no statement, only a muted note', () => {
    const out = html([claimOutcome({ holds: null, text: 'Scalable reaches … .' })]);
    expect(out).toContain('data-testid="sim-claims"');
    expect(out).not.toContain('<li');
    expect(out).toContain('Statements about these runs appear here as the runs they are about finish.');
  });

  it('a sentence that holds is stated, its numbers marked with their reference and value', () => {
    const out = html([claimOutcome()]);
    expect(out).toContain('What this simulation shows');
    expect(out).toContain('data-claim-id="c" data-holds="true"');
    expect(out).toContain('data-ref="scalable@16777216:total_throughput_mbps" data-value="943.04"');
    expect(out).toContain('Scalable reaches <span');
    expect(out).not.toContain('do not show');
  });

  it('a sentence the runs do not bear out is shown as such, with what was measured', () => {
    const out = html([claimOutcome({ holds: false, detail: 'Scalable TCP: 930 Mb/s · HighSpeed TCP: 937 Mb/s (at 16 MB)' })]);
    expect(out).toContain('data-holds="false"');
    expect(out).toContain('These runs do not show this:');
    expect(out).toContain('(measured: Scalable TCP: 930 Mb/s · HighSpeed TCP: 937 Mb/s (at 16 MB))');
  });

  it('lists finished sentences and counts the rest', () => {
    const out = html([claimOutcome({ id: 'a' }), claimOutcome({ id: 'b', holds: null }), claimOutcome({ id: 'c', holds: null })]);
    expect(out).toContain('data-claim-id="a"');
    expect(out).not.toContain('data-claim-id="b"');
    expect(out).toContain('2 more statements appear when the runs they are about finish.');
  });
});

describe('claimsView', () => {
  it('keeps the lab’s order and counts the sentences still waiting', () => {
    const v = claimsView([claimOutcome({ id: 'x', holds: false }), claimOutcome({ id: 'y', holds: null }), claimOutcome({ id: 'z' })]);
    expect(v.shown.map((c) => c.id)).toEqual(['x', 'z']);
    expect(v.waiting).toBe(1);
    expect(waitingText(v)).toBe('1 more statement appears when the runs it is about finish.');
    expect(waitingText(claimsView([claimOutcome()]))).toBeNull();
  });
});
