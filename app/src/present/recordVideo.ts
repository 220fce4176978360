// Records a canvas animation as WebM with the browser's MediaRecorder, for
// browsers without a WebCodecs VP8/VP9 encoder (encodeVideo.ts is used
// where there is one: MediaRecorder works in real time, so a busy machine
// drops frames). Each frame is drawn for the wall time elapsed, so the
// video lasts as long as the animation; the file then gets its Duration
// written (webmDuration.ts) so players can seek.

import { withWebmDuration } from './webmDuration';
import { pickWebmType } from './videoSupport';

/** Bits per second for a frame size: about 0.1 bit per pixel at 30 frames/s (charts compress well), 2–16 Mb/s. */
export function videoBitrate(width: number, height: number, fps: number): number {
  return Math.round(Math.min(16e6, Math.max(2e6, width * height * fps * 0.1)));
}

export interface RecordOptions {
  width: number;
  height: number;
  fps: number;
  /** Length of the video, ms of wall time. */
  lengthMs: number;
  /** Draws the frame `elapsedMs` into the video. */
  draw(ctx: CanvasRenderingContext2D, elapsedMs: number): void;
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}

export async function recordCanvasWebm(o: RecordOptions): Promise<Blob> {
  const type = pickWebmType((t) => MediaRecorder.isTypeSupported(t));
  if (!type) throw new Error('this browser cannot record WebM video');
  const canvas = document.createElement('canvas');
  canvas.width = o.width;
  canvas.height = o.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  o.draw(ctx, 0);
  const stream = canvas.captureStream(o.fps);
  const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: videoBitrate(o.width, o.height, o.fps) });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  recorder.start(250);
  const t0 = performance.now();
  let aborted = false;
  await new Promise<void>((resolve) => {
    const frame = () => {
      const elapsed = performance.now() - t0;
      aborted = o.signal?.aborted ?? false;
      o.draw(ctx, Math.min(elapsed, o.lengthMs));
      o.onProgress?.(Math.min(1, elapsed / o.lengthMs));
      if (elapsed >= o.lengthMs || aborted) resolve();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const recordedMs = performance.now() - t0;
  recorder.stop();
  await stopped;
  for (const t of stream.getTracks()) t.stop();
  if (aborted) throw new DOMException('recording cancelled', 'AbortError');
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  return new Blob([withWebmDuration(bytes, recordedMs) as Uint8Array<ArrayBuffer>], { type: 'video/webm' });
}
