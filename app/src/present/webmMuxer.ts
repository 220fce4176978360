// A minimal WebM writer for encoded video frames (WebCodecs' VP8 or VP9
// chunks): the EBML header, a Segment with its Info (Duration included),
// one video track, and Clusters of SimpleBlocks, a new Cluster at each key
// frame. Enough for browsers, players and slide tools to play and seek.

export interface MuxFrame {
  data: Uint8Array;
  /** Presentation time, ms from the start. */
  timeMs: number;
  key: boolean;
}

export interface MuxInput {
  codec: 'V_VP8' | 'V_VP9';
  width: number;
  height: number;
  frames: readonly MuxFrame[];
  durationMs: number;
}

type Bytes = Uint8Array;

function concat(parts: readonly Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** An element ID's bytes (IDs are written with their length marker). */
function idBytes(id: number): Bytes {
  const out: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return new Uint8Array(out);
}

/** A data size as the shortest EBML vint. */
export function sizeBytes(size: number): Bytes {
  let length = 1;
  while (size >= 2 ** (7 * length) - 1) length++;
  const out = new Uint8Array(length);
  let v = size;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] |= 0x80 >> (length - 1);
  return out;
}

function el(id: number, data: Bytes | readonly Bytes[]): Bytes {
  const body = data instanceof Uint8Array ? data : concat(data);
  return concat([idBytes(id), sizeBytes(body.length), body]);
}

function uint(id: number, value: number): Bytes {
  const out: number[] = [];
  for (let v = value; v > 0 || out.length === 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return el(id, new Uint8Array(out));
}

function float(id: number, value: number): Bytes {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, value);
  return el(id, b);
}

function str(id: number, text: string): Bytes {
  return el(id, new TextEncoder().encode(text));
}

const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeVersion: 0x4287,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  MuxingApp: 0x4d80,
  WritingApp: 0x5741,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackUID: 0x73c5,
  TrackType: 0x83,
  FlagLacing: 0x9c,
  CodecID: 0x86,
  DefaultDuration: 0x23e383,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
} as const;

/** Longest a Cluster may run, ms (a SimpleBlock's time is a signed 16-bit offset from its Cluster's). */
const MAX_CLUSTER_MS = 30_000;

function simpleBlock(f: MuxFrame, clusterMs: number): Bytes {
  const head = new Uint8Array(4);
  head[0] = 0x81; // track 1
  new DataView(head.buffer).setInt16(1, Math.round(f.timeMs - clusterMs));
  head[3] = f.key ? 0x80 : 0x00;
  return el(ID.SimpleBlock, [head, f.data]);
}

export function muxWebm(input: MuxInput): Bytes {
  const header = el(ID.EBML, [
    uint(ID.EBMLVersion, 1),
    uint(ID.EBMLReadVersion, 1),
    uint(ID.EBMLMaxIDLength, 4),
    uint(ID.EBMLMaxSizeLength, 8),
    str(ID.DocType, 'webm'),
    uint(ID.DocTypeVersion, 4),
    uint(ID.DocTypeReadVersion, 2),
  ]);
  const info = el(ID.Info, [uint(ID.TimecodeScale, 1_000_000), str(ID.MuxingApp, 'Sawtooth'), str(ID.WritingApp, 'Sawtooth'), float(ID.Duration, input.durationMs)]);
  const frameNs = input.frames.length > 1 ? Math.round(((input.frames[1].timeMs - input.frames[0].timeMs) * 1e6)) : 0;
  const tracks = el(ID.Tracks, [
    el(ID.TrackEntry, [
      uint(ID.TrackNumber, 1),
      uint(ID.TrackUID, 1),
      uint(ID.TrackType, 1),
      uint(ID.FlagLacing, 0),
      str(ID.CodecID, input.codec),
      ...(frameNs > 0 ? [uint(ID.DefaultDuration, frameNs)] : []),
      el(ID.Video, [uint(ID.PixelWidth, input.width), uint(ID.PixelHeight, input.height)]),
    ]),
  ]);
  const clusters: Bytes[] = [];
  let blocks: Bytes[] = [];
  let clusterMs = 0;
  const close = () => {
    if (blocks.length) clusters.push(el(ID.Cluster, [uint(ID.Timecode, Math.round(clusterMs)), ...blocks]));
    blocks = [];
  };
  input.frames.forEach((f, i) => {
    if (i === 0 || f.key || f.timeMs - clusterMs >= MAX_CLUSTER_MS) {
      close();
      clusterMs = Math.round(f.timeMs);
    }
    blocks.push(simpleBlock(f, clusterMs));
  });
  close();
  return concat([header, el(ID.Segment, [info, tracks, ...clusters])]);
}
