// What the share panel needs to know before any video is made: whether this
// browser can make a WebM at all, and which type it would use. Kept apart
// from the encoders (encodeVideo.ts, recordVideo.ts, the muxer), which load
// only when a video is asked for.

/** WebM types in order of preference (VP9 is smaller; VP8 plays everywhere WebM does). */
export const WEBM_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'] as const;

export function pickWebmType(isSupported: (t: string) => boolean): string | null {
  return WEBM_TYPES.find((t) => isSupported(t)) ?? null;
}

/** Can this browser make a WebM video at all (WebCodecs, or MediaRecorder)? */
export function canRecordVideo(): boolean {
  if (typeof VideoEncoder !== 'undefined' && typeof VideoFrame !== 'undefined') return true;
  return typeof MediaRecorder !== 'undefined' && typeof HTMLCanvasElement.prototype.captureStream === 'function' && pickWebmType((t) => MediaRecorder.isTypeSupported(t)) !== null;
}
