import { describe, expect, it } from 'vitest';
import { headerLayout } from './chartExport';

describe('an exported chart’s header', () => {
  const legend = ['flow 0 · Standard TCP', 'flow 1 · CUBIC', 'ssthresh', 'cwnd'].map((label) => ({ label, width: 2 }));

  it('puts the caption under the title and the legend under both, in one row where it fits', () => {
    const l = headerLayout({ title: 'Congestion window', caption: 'Standard TCP · 100 Mb/s', legend }, 1200);
    expect(l.captionY).toBeGreaterThan(l.titleY);
    expect(new Set(l.entries.map((e) => e.y)).size).toBe(1);
    expect(l.entries[0].y).toBeGreaterThan(l.captionY);
    for (let i = 1; i < l.entries.length; i++) expect(l.entries[i].x).toBeGreaterThan(l.entries[i - 1].x);
    expect(l.height).toBeGreaterThan(l.entries[0].y);
  });

  it('wraps the legend in a narrow chart, growing the band, and keeps every entry inside the width', () => {
    const wide = headerLayout({ title: 'Queues', legend }, 1200);
    const narrow = headerLayout({ title: 'Queues', legend }, 260);
    expect(narrow.entries.length).toBe(legend.length);
    expect(new Set(narrow.entries.map((e) => e.y)).size).toBeGreaterThan(1);
    expect(narrow.height).toBeGreaterThan(wide.height);
    for (const e of narrow.entries) expect(e.x).toBeLessThan(260);
    // No caption: no line for it.
    expect(narrow.captionY).toBeNaN();
  });
});
