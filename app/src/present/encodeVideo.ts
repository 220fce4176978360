// Encodes an animation frame by frame with WebCodecs (VP9, else VP8) and
// writes it as WebM (webmMuxer.ts). Each frame has its exact time, so the
// video lasts exactly as long as the animation however slowly the machine
// encodes, and never drops a frame. Where the browser has no WebCodecs VP8
// or VP9 encoder, recordVideo.ts records the canvas with MediaRecorder.

import { muxWebm, type MuxFrame } from './webmMuxer';
import { recordCanvasWebm, videoBitrate } from './recordVideo';

/** Encoders tried, in order: WebCodecs codec string and the WebM codec id. */
const CODECS = [
  { codec: 'vp09.00.10.08', webm: 'V_VP9' },
  { codec: 'vp8', webm: 'V_VP8' },
] as const;

export interface VideoOptions {
  width: number;
  height: number;
  fps: number;
  /** Length of the video, ms. */
  lengthMs: number;
  /** Draws the frame at `timeMs` into the video. */
  draw(ctx: CanvasRenderingContext2D, timeMs: number): void;
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}

/** Frames in a video of `lengthMs` at `fps`, and the time each shows (the last shows the very end). */
export function frameTimes(lengthMs: number, fps: number): number[] {
  const n = Math.max(1, Math.round((lengthMs * fps) / 1000));
  return Array.from({ length: n }, (_, i) => (i === n - 1 && n > 1 ? lengthMs : (i * 1000) / fps));
}

/** A key frame every two seconds (where players can start and seek). */
export function isKeyFrame(i: number, fps: number): boolean {
  return i % Math.max(1, Math.round(fps * 2)) === 0;
}

async function pickEncoder(width: number, height: number, fps: number): Promise<(typeof CODECS)[number] | null> {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') return null;
  for (const c of CODECS) {
    try {
      const s = await VideoEncoder.isConfigSupported({ codec: c.codec, width, height, bitrate: videoBitrate(width, height, fps), framerate: fps });
      if (s.supported) return c;
    } catch {
      // Not this one.
    }
  }
  return null;
}

/** WebM bytes of the animation: WebCodecs where the browser has it, else MediaRecorder (in real time). */
export async function encodeWebm(o: VideoOptions): Promise<Blob> {
  const choice = await pickEncoder(o.width, o.height, o.fps);
  if (!choice) return recordCanvasWebm({ ...o, draw: (ctx, elapsed) => o.draw(ctx, elapsed) });
  const canvas = document.createElement('canvas');
  canvas.width = o.width;
  canvas.height = o.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  const frames: MuxFrame[] = [];
  let failure: Error | null = null;
  const encoder = new VideoEncoder({
    output: (chunk) => {
      const data = new Uint8Array(chunk.byteLength);
      chunk.copyTo(data);
      frames.push({ data, timeMs: chunk.timestamp / 1000, key: chunk.type === 'key' });
    },
    error: (e) => (failure = e instanceof Error ? e : new Error(String(e))),
  });
  encoder.configure({ codec: choice.codec, width: o.width, height: o.height, bitrate: videoBitrate(o.width, o.height, o.fps), framerate: o.fps });
  const times = frameTimes(o.lengthMs, o.fps);
  const frameUs = 1e6 / o.fps;
  try {
    for (let i = 0; i < times.length; i++) {
      if (o.signal?.aborted) throw new DOMException('recording cancelled', 'AbortError');
      if (failure) throw failure;
      o.draw(ctx, times[i]);
      const frame = new VideoFrame(canvas, { timestamp: Math.round(i * frameUs), duration: Math.round(frameUs) });
      encoder.encode(frame, { keyFrame: isKeyFrame(i, o.fps) });
      frame.close();
      o.onProgress?.((i + 1) / times.length);
      // Let the encoder catch up (and the page breathe) before drawing more.
      while (encoder.encodeQueueSize > 2) await new Promise((r) => setTimeout(r, 0));
    }
    await encoder.flush();
    if (failure) throw failure;
  } finally {
    if (encoder.state !== 'closed') encoder.close();
  }
  frames.sort((a, b) => a.timeMs - b.timeMs);
  const bytes = muxWebm({ codec: choice.webm, width: o.width, height: o.height, frames, durationMs: (times.length * 1000) / o.fps });
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'video/webm' });
}
