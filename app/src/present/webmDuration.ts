// MediaRecorder writes WebM as a live stream: its Segment Info has no
// Duration, so players show no length and cannot seek until they have read
// the whole file (Chromium reports a duration of Infinity). This writes the
// Duration element into the Info (EBML, the Matroska format), leaving the
// file as it was when it is not laid out as MediaRecorder lays it out.

const EBML_ID = 0x1a45dfa3;
const SEGMENT_ID = 0x18538067;
const INFO_ID = 0x1549a966;
const SEEK_HEAD_ID = 0x114d9b74;
const CLUSTER_ID = 0x1f43b675;
const TIMECODE_SCALE_ID = 0x2ad7b1;
const DURATION_ID = 0x4489;

interface Vint {
  value: number;
  length: number;
  /** All value bits set: "unknown size". */
  unknown: boolean;
}

/** A variable-length integer at `pos` (EBML): sizes drop the length marker, IDs keep it. */
export function readVint(b: Uint8Array, pos: number, keepMarker = false): Vint | null {
  if (pos >= b.length) return null;
  const first = b[pos];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || pos + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = (first & (0xff >> length)) === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[pos + i];
    if (b[pos + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** A size as an 8-byte vint (any size fits; players read the long form). */
export function sizeVint8(size: number): Uint8Array {
  const out = new Uint8Array(8);
  out[0] = 0x01;
  let v = size;
  for (let i = 7; i >= 1; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

interface Element {
  id: number;
  /** Start of the ID, of the data, and the end (data start + size; Infinity for unknown size). */
  start: number;
  dataStart: number;
  end: number;
  sizeLength: number;
  unknown: boolean;
}

function readElement(b: Uint8Array, pos: number): Element | null {
  const id = readVint(b, pos, true);
  if (!id) return null;
  const size = readVint(b, pos + id.length);
  if (!size) return null;
  const dataStart = pos + id.length + size.length;
  return { id: id.value, start: pos, dataStart, end: size.unknown ? Infinity : dataStart + size.value, sizeLength: size.length, unknown: size.unknown };
}

function readUint(b: Uint8Array, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 256 + b[i];
  return v;
}

/** The WebM bytes with a Duration of `durationMs` in its Segment Info (unchanged when that cannot be done safely). */
export function withWebmDuration(bytes: Uint8Array, durationMs: number): Uint8Array {
  const head = readElement(bytes, 0);
  if (!head || head.id !== EBML_ID || !Number.isFinite(head.end)) return bytes;
  const seg = readElement(bytes, head.end);
  if (!seg || seg.id !== SEGMENT_ID) return bytes;
  // Find Info among the Segment's first children (before any Cluster).
  let pos = seg.dataStart;
  let info: Element | null = null;
  while (pos < bytes.length) {
    const el = readElement(bytes, pos);
    if (!el || el.id === CLUSTER_ID) break;
    // Seek positions would move with the bytes inserted: leave such a file alone.
    if (el.id === SEEK_HEAD_ID) return bytes;
    if (el.id === INFO_ID) {
      info = el;
      break;
    }
    if (!Number.isFinite(el.end)) break;
    pos = el.end;
  }
  if (!info || !Number.isFinite(info.end) || info.end > bytes.length) return bytes;
  let scale = 1_000_000;
  let existing: Element | null = null;
  for (let p = info.dataStart; p < info.end; ) {
    const el = readElement(bytes, p);
    if (!el || !Number.isFinite(el.end)) return bytes;
    if (el.id === TIMECODE_SCALE_ID) scale = readUint(bytes, el.dataStart, el.end) || scale;
    if (el.id === DURATION_ID) existing = el;
    p = el.end;
  }
  const value = (durationMs * 1_000_000) / scale;
  if (existing) {
    // A Duration already there (4 or 8 bytes): overwrite it in place.
    const out = bytes.slice();
    const view = new DataView(out.buffer, out.byteOffset + existing.dataStart, existing.end - existing.dataStart);
    if (existing.end - existing.dataStart === 8) view.setFloat64(0, value);
    else if (existing.end - existing.dataStart === 4) view.setFloat32(0, value);
    else return bytes;
    return out;
  }
  const duration = new Uint8Array(11);
  duration[0] = 0x44;
  duration[1] = 0x89;
  duration[2] = 0x88; // size 8
  new DataView(duration.buffer).setFloat64(3, value);
  const infoIdLength = info.dataStart - info.sizeLength - info.start;
  const infoData = bytes.subarray(info.dataStart, info.end);
  const newInfo = new Uint8Array(infoIdLength + 8 + infoData.length + duration.length);
  newInfo.set(bytes.subarray(info.start, info.start + infoIdLength), 0);
  newInfo.set(sizeVint8(infoData.length + duration.length), infoIdLength);
  newInfo.set(infoData, infoIdLength + 8);
  newInfo.set(duration, infoIdLength + 8 + infoData.length);
  const delta = newInfo.length - (info.end - info.start);
  const out = new Uint8Array(bytes.length + delta);
  out.set(bytes.subarray(0, info.start), 0);
  out.set(newInfo, info.start);
  out.set(bytes.subarray(info.end), info.start + newInfo.length);
  if (!seg.unknown) {
    // A Segment of known size grows by what was inserted (rewritten in its own width).
    const sizeAt = head.end + (seg.dataStart - seg.sizeLength - seg.start);
    const newSize = seg.end - seg.dataStart + delta;
    if (newSize >= 2 ** (7 * seg.sizeLength) - 1) return bytes;
    let v = newSize;
    for (let i = seg.sizeLength - 1; i >= 0; i--) {
      out[sizeAt + i] = v % 256;
      v = Math.floor(v / 256);
    }
    out[sizeAt] |= 0x80 >> (seg.sizeLength - 1);
  }
  return out;
}

/** The Duration written in a WebM's Segment Info, ms, or null (for tests and checks). */
export function webmDurationMs(bytes: Uint8Array): number | null {
  const head = readElement(bytes, 0);
  if (!head || head.id !== EBML_ID) return null;
  const seg = readElement(bytes, head.end);
  if (!seg || seg.id !== SEGMENT_ID) return null;
  for (let p = seg.dataStart; p < bytes.length; ) {
    const el = readElement(bytes, p);
    if (!el || el.id === CLUSTER_ID || !Number.isFinite(el.end)) return null;
    if (el.id === INFO_ID) {
      let scale = 1_000_000;
      let d: number | null = null;
      for (let q = el.dataStart; q < el.end; ) {
        const c = readElement(bytes, q);
        if (!c || !Number.isFinite(c.end)) return null;
        if (c.id === TIMECODE_SCALE_ID) scale = readUint(bytes, c.dataStart, c.end) || scale;
        if (c.id === DURATION_ID) {
          const v = new DataView(bytes.buffer, bytes.byteOffset + c.dataStart, c.end - c.dataStart);
          d = c.end - c.dataStart === 8 ? v.getFloat64(0) : v.getFloat32(0);
        }
        q = c.end;
      }
      return d === null ? null : (d * scale) / 1_000_000;
    }
    p = el.end;
  }
  return null;
}
