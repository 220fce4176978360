import { describe, expect, it } from 'vitest';
import { frameTimes, isKeyFrame } from './encodeVideo';
import { videoBitrate } from './recordVideo';
import { pickWebmType } from './videoSupport';

describe('video frames', () => {
  it('covers the animation: one frame per 1/fps, the last showing its end', () => {
    const t = frameTimes(1000, 30);
    expect(t).toHaveLength(30);
    expect(t[0]).toBe(0);
    expect(t[1]).toBeCloseTo(33.333, 2);
    expect(t[29]).toBe(1000);
    expect(frameTimes(10, 30)).toEqual([0]);
  });

  it('puts a key frame every two seconds', () => {
    const keys = Array.from({ length: 200 }, (_, i) => i).filter((i) => isKeyFrame(i, 30));
    expect(keys).toEqual([0, 60, 120, 180]);
  });
});

describe('MediaRecorder fallback', () => {
  it('prefers VP9, then VP8, then any WebM', () => {
    expect(pickWebmType(() => true)).toBe('video/webm;codecs=vp9');
    expect(pickWebmType((t) => !t.includes('vp9'))).toBe('video/webm;codecs=vp8');
    expect(pickWebmType((t) => t === 'video/webm')).toBe('video/webm');
    expect(pickWebmType(() => false)).toBeNull();
  });

  it('sizes the bit rate to the frame, within 2–16 Mb/s', () => {
    expect(videoBitrate(1920, 1080, 30)).toBeCloseTo(6.2e6, -5);
    expect(videoBitrate(320, 180, 30)).toBe(2e6);
    expect(videoBitrate(3840, 2160, 60)).toBe(16e6);
  });
});
