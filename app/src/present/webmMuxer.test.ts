import { describe, expect, it } from 'vitest';
import { muxWebm, sizeBytes, type MuxFrame } from './webmMuxer';
import { readVint, webmDurationMs } from './webmDuration';

interface Node {
  id: number;
  start: number;
  data: Uint8Array;
}

/** The elements one after another in `b` (sizes must be known). */
function children(b: Uint8Array): Node[] {
  const out: Node[] = [];
  for (let p = 0; p < b.length; ) {
    const id = readVint(b, p, true)!;
    const size = readVint(b, p + id.length)!;
    const start = p + id.length + size.length;
    out.push({ id: id.value, start, data: b.subarray(start, start + size.value) });
    p = start + size.value;
  }
  return out;
}

const frames = (n: number, fps: number, keyEvery: number): MuxFrame[] =>
  Array.from({ length: n }, (_, i) => ({ data: new Uint8Array([i, i, i]), timeMs: (i * 1000) / fps, key: i % keyEvery === 0 }));

describe('muxWebm', () => {
  const out = muxWebm({ codec: 'V_VP9', width: 1920, height: 1080, frames: frames(90, 30, 60), durationMs: 3000 });
  const top = children(out);

  it('writes a WebM header and one Segment that holds the rest of the file', () => {
    expect(top.map((n) => n.id)).toEqual([0x1a45dfa3, 0x18538067]);
    const docType = children(top[0].data).find((n) => n.id === 0x4282)!;
    expect(new TextDecoder().decode(docType.data)).toBe('webm');
    expect(top[1].start + top[1].data.length).toBe(out.length);
  });

  it('states the duration, the codec and the frame size', () => {
    expect(webmDurationMs(out)).toBe(3000);
    const seg = children(top[1].data);
    const track = children(children(seg.find((n) => n.id === 0x1654ae6b)!.data)[0].data);
    expect(new TextDecoder().decode(track.find((n) => n.id === 0x86)!.data)).toBe('V_VP9');
    const video = children(track.find((n) => n.id === 0xe0)!.data);
    expect(video.map((n) => n.data.reduce((v, b) => v * 256 + b, 0))).toEqual([1920, 1080]);
  });

  it('starts a Cluster at each key frame and times every frame in it', () => {
    const clusters = children(top[1].data).filter((n) => n.id === 0x1f43b675);
    expect(clusters).toHaveLength(2);
    const times: number[] = [];
    const keys: boolean[] = [];
    for (const c of clusters) {
      const kids = children(c.data);
      const base = kids[0].data.reduce((v, b) => v * 256 + b, 0);
      for (const b of kids.filter((k) => k.id === 0xa3)) {
        expect(b.data[0]).toBe(0x81);
        times.push(base + new DataView(b.data.buffer, b.data.byteOffset + 1, 2).getInt16(0));
        keys.push((b.data[3] & 0x80) !== 0);
        expect(Array.from(b.data.subarray(4))).toHaveLength(3);
      }
    }
    expect(times).toEqual(frames(90, 30, 60).map((f) => Math.round(f.timeMs)));
    expect(keys.filter(Boolean)).toHaveLength(2);
    expect(keys[0]).toBe(true);
    expect(keys[60]).toBe(true);
  });

  it('writes sizes as the shortest vint', () => {
    expect(Array.from(sizeBytes(0))).toEqual([0x80]);
    expect(Array.from(sizeBytes(126))).toEqual([0xfe]);
    expect(Array.from(sizeBytes(127))).toEqual([0x40, 0x7f]);
    expect(readVint(sizeBytes(1_000_000), 0)!.value).toBe(1_000_000);
  });
});
