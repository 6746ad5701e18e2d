/**
 * Response bodies of a given byte size that Chromium accepts as what their MIME type says: decodable
 * images (PNG, GIF, JPEG: a 1x1 picture padded inside the format — a private PNG chunk, GIF comment
 * blocks, JPEG COM segments — so the decoder never stops the load), and text bodies (scripts, style
 * sheets, documents) padded with a comment of their language. Pure.
 */
import { crc32 } from 'node:zlib';

export type ImageFormat = 'png' | 'gif' | 'jpeg';

/** The image format a body of this MIME type is made in (undefined: not an image we make). */
export function imageFormatOf(mimeType: string): ImageFormat | undefined {
  const m = mimeType.toLowerCase();
  if (!m.startsWith('image/') || m.includes('svg')) return undefined;
  if (m.includes('gif')) return 'gif';
  if (m.includes('jpeg') || m.includes('jpg')) return 'jpeg';
  return 'png';
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** zlib stream of one scanline: filter 0, one grey pixel. */
const PNG_IDAT = Buffer.from([0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0x00, 0x80, 0x00, 0x82, 0x00, 0x81]);

function png(size: number): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]); // 1x1, 8-bit greyscale
  const head = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', PNG_IDAT)]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  const room = size - head.length - end.length;
  // A private ancillary chunk ("paDd") holds the padding; under 12 bytes of room go after IEND, which decoders never read.
  if (room >= 12) return Buffer.concat([head, pngChunk('paDd', Buffer.alloc(room - 12, 0x20)), end]);
  return Buffer.concat([head, end, Buffer.alloc(Math.max(0, room))]);
}

/** A 1x1 GIF89a with a 2-colour table. */
const GIF_HEAD = Buffer.from('474946383961010001008000000000 00ffffff2c000000000100010000020244 0100'.replace(/ /g, ''), 'hex');

function gif(size: number): Buffer {
  const trailer = Buffer.from([0x3b]);
  const room = size - GIF_HEAD.length - trailer.length;
  if (room < 5) return Buffer.concat([GIF_HEAD, trailer, Buffer.alloc(Math.max(0, room))]);
  // Comment extension: 21 FE, k sub-blocks of (length byte + 1..255 data bytes), 00.
  const inner = room - 3;
  const k = Math.ceil(inner / 256);
  let data = inner - k;
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  for (let i = 0; i < k; i++) {
    const len = Math.ceil(data / (k - i));
    data -= len;
    blocks.push(Buffer.from([len]), Buffer.alloc(len, 0x20));
  }
  blocks.push(Buffer.from([0x00]));
  return Buffer.concat([GIF_HEAD, ...blocks, trailer]);
}

/**
 * A baseline 8x8 greyscale JPEG: quantisation of all ones, Huffman tables with one code each (DC
 * category 0, AC end-of-block), one block whose DC difference is 0 followed by EOB.
 */
function jpegCore(): { head: Buffer; tail: Buffer } {
  const seg = (marker: number, body: number[]): number[] => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const dqt = seg(0xdb, [0x00, ...new Array(64).fill(1)]);
  const sof = seg(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
  const dhtDc = seg(0xc4, [0x00, 1, ...new Array(15).fill(0), 0x00]);
  const dhtAc = seg(0xc4, [0x10, 1, ...new Array(15).fill(0), 0x00]);
  const sos = seg(0xda, [1, 1, 0x00, 0, 63, 0]);
  const head = Buffer.from([0xff, 0xd8, ...dqt, ...sof, ...dhtDc, ...dhtAc]);
  // Scan: DC code '0' (difference 0), AC code '0' (EOB), padded with ones: 0011 1111.
  const tail = Buffer.from([...sos, 0x3f, 0xff, 0xd9]);
  return { head, tail };
}

function jpeg(size: number): Buffer {
  const { head, tail } = jpegCore();
  let room = size - head.length - tail.length;
  const segs: Buffer[] = [];
  // COM segments (FF FE, 2-byte length counting itself) of at most 65535 bytes each.
  while (room >= 4) {
    const len = Math.min(65535, room - 2);
    const rest = room - 2 - len;
    const take = rest > 0 && rest < 4 ? len - 4 : len; // never leave a remainder too small for a segment
    const s = Buffer.alloc(take + 2, 0x20);
    s[0] = 0xff;
    s[1] = 0xfe;
    s.writeUInt16BE(take, 2);
    segs.push(s);
    room -= take + 2;
  }
  return Buffer.concat([head, ...segs, tail, Buffer.alloc(Math.max(0, room))]);
}

/** A decodable image of `size` bytes (or the format's smallest, when `size` is below it). */
export function imageBody(format: ImageFormat, size: number): Buffer {
  return format === 'png' ? png(size) : format === 'gif' ? gif(size) : jpeg(size);
}

/** The comment syntax that pads a text body of this kind. */
export type TextKind = 'html' | 'js' | 'css' | 'other';

export function textKindOf(mimeType: string): TextKind {
  const m = mimeType.toLowerCase();
  if (m.includes('html')) return 'html';
  if (m.includes('javascript') || m.includes('ecmascript')) return 'js';
  if (m.includes('css')) return 'css';
  return 'other';
}

/** `text` followed by a comment of its language that brings it to `size` bytes (UTF-8); never cut. */
export function padText(text: string, kind: TextKind, size: number): Buffer {
  const body = Buffer.from(text, 'utf8');
  const room = size - body.length;
  const [open, close] = kind === 'html' ? ['<!--', '-->'] : kind === 'js' || kind === 'css' ? ['/*', '*/'] : ['', ''];
  if (room <= 0) return body;
  if (room < open.length + close.length) return Buffer.concat([body, Buffer.alloc(room, 0x20)]);
  return Buffer.concat([body, Buffer.from(open), Buffer.alloc(room - open.length - close.length, 0x20), Buffer.from(close)]);
}

/** A body of `size` bytes for a resource that is neither an image, nor a page, script or style sheet. */
export function opaqueBody(size: number): Buffer {
  return Buffer.alloc(Math.max(0, size), 0x20);
}
