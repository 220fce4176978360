import { describe, expect, it } from 'vitest';
import { readVint, sizeVint8, webmDurationMs, withWebmDuration } from './webmDuration';

const EBML_HEAD = [0x1a, 0x45, 0xdf, 0xa3, 0x84, 0x42, 0x86, 0x81, 0x01];
const SEGMENT_UNKNOWN = [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
const TIMECODE_SCALE = [0x2a, 0xd7, 0xb1, 0x83, 0x0f, 0x42, 0x40];
const MUXING_APP = [0x4d, 0x80, 0x82, 0x61, 0x62];
const info = (children: number[]) => [0x15, 0x49, 0xa9, 0x66, 0x80 | children.length, ...children];
const TRACKS = [0x16, 0x54, 0xae, 0x6b, 0x80];
const CLUSTER = [0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe7, 0x81, 0x00];

/** A WebM laid out as Chromium's MediaRecorder writes it (no Duration, live Segment). */
function recorderWebm(): Uint8Array {
  return new Uint8Array([...EBML_HEAD, ...SEGMENT_UNKNOWN, ...info([...TIMECODE_SCALE, ...MUXING_APP]), ...TRACKS, ...CLUSTER]);
}

function endsWith(a: Uint8Array, tail: number[]): boolean {
  return tail.every((v, i) => a[a.length - tail.length + i] === v);
}

describe('EBML variable-length integers', () => {
  it('reads sizes, IDs and the unknown size', () => {
    expect(readVint(new Uint8Array([0x81]), 0)).toEqual({ value: 1, length: 1, unknown: false });
    expect(readVint(new Uint8Array([0x40, 0x02]), 0)).toEqual({ value: 2, length: 2, unknown: false });
    expect(readVint(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), 0, true)!.value).toBe(0x1a45dfa3);
    expect(readVint(new Uint8Array(SEGMENT_UNKNOWN), 4)!.unknown).toBe(true);
    expect(readVint(new Uint8Array([0x00]), 0)).toBeNull();
  });

  it('writes any size in the 8-byte form', () => {
    const v = sizeVint8(300);
    expect(v.length).toBe(8);
    expect(readVint(v, 0)).toEqual({ value: 300, length: 8, unknown: false });
  });
});

describe('withWebmDuration', () => {
  it('adds the Duration to a recorder’s file and keeps everything else', () => {
    const src = recorderWebm();
    expect(webmDurationMs(src)).toBeNull();
    const out = withWebmDuration(src, 1500);
    expect(webmDurationMs(out)).toBe(1500);
    expect(out.length).toBe(src.length + 11 + 7);
    expect(endsWith(out, [...TRACKS, ...CLUSTER])).toBe(true);
    // The header and the Segment's start are untouched.
    expect(Array.from(out.subarray(0, EBML_HEAD.length + SEGMENT_UNKNOWN.length))).toEqual([...EBML_HEAD, ...SEGMENT_UNKNOWN]);
  });

  it('follows the file’s timecode scale', () => {
    // 1 ms → 100 µs units: the stored value is 10× the milliseconds.
    const scale100us = [0x2a, 0xd7, 0xb1, 0x83, 0x01, 0x86, 0xa0];
    const src = new Uint8Array([...EBML_HEAD, ...SEGMENT_UNKNOWN, ...info([...scale100us]), ...CLUSTER]);
    const out = withWebmDuration(src, 2000);
    expect(webmDurationMs(out)).toBeCloseTo(2000);
  });

  it('grows a Segment of known size by what it inserted', () => {
    const body = [...info([...TIMECODE_SCALE]), ...TRACKS];
    const src = new Uint8Array([...EBML_HEAD, 0x18, 0x53, 0x80, 0x67, 0x40, body.length, ...body]);
    const out = withWebmDuration(src, 750);
    expect(webmDurationMs(out)).toBe(750);
    const size = readVint(out, EBML_HEAD.length + 4)!;
    expect(size.length).toBe(2);
    expect(size.value).toBe(out.length - EBML_HEAD.length - 6);
  });

  it('overwrites a Duration already there', () => {
    const dur = [0x44, 0x89, 0x84, 0, 0, 0, 0];
    const src = new Uint8Array([...EBML_HEAD, ...SEGMENT_UNKNOWN, ...info([...TIMECODE_SCALE, ...dur]), ...CLUSTER]);
    const out = withWebmDuration(src, 1234);
    expect(out.length).toBe(src.length);
    expect(webmDurationMs(out)).toBeCloseTo(1234, 3);
  });

  it('leaves alone what it cannot change safely: seek positions, other files', () => {
    const seekHead = [0x11, 0x4d, 0x9b, 0x74, 0x80];
    const withSeek = new Uint8Array([...EBML_HEAD, ...SEGMENT_UNKNOWN, ...seekHead, ...info([...TIMECODE_SCALE]), ...CLUSTER]);
    expect(withWebmDuration(withSeek, 1000)).toBe(withSeek);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(withWebmDuration(png, 1000)).toBe(png);
    const truncated = recorderWebm().subarray(0, 20);
    expect(withWebmDuration(truncated, 1000)).toBe(truncated);
  });
});
