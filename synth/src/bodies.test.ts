import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { imageBody, imageFormatOf, padText, textKindOf } from './bodies.ts';

const SIZES = [1, 50, 100, 143, 144, 145, 1000, 65_600, 200_003];

/** Walks a PNG's chunks: every CRC right, IHDR first, IEND last; returns the chunk types. */
function pngChunks(b: Buffer): string[] {
  assert.deepEqual([...b.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  for (let at = 8; at < b.length && types.at(-1) !== 'IEND'; ) {
    const len = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    assert.equal(b.readUInt32BE(at + 8 + len), crc32(b.subarray(at + 4, at + 8 + len)) >>> 0, `CRC of ${type}`);
    types.push(type);
    at += 12 + len;
  }
  return types;
}

test('PNG bodies have the asked size (above the smallest PNG) and valid chunks', () => {
  for (const size of SIZES) {
    const b = imageBody('png', size);
    assert.equal(b.length, Math.max(size, 70));
    const types = pngChunks(b);
    assert.deepEqual([types[0], types.at(-1)], ['IHDR', 'IEND']);
  }
});

test('GIF bodies: header, comment sub-blocks that add up, trailer', () => {
  for (const size of SIZES) {
    const b = imageBody('gif', size);
    assert.equal(b.length, Math.max(size, 35));
    assert.equal(b.toString('latin1', 0, 6), 'GIF89a');
    assert.ok(b.includes(0x3b, 34));
    if (size >= 40) {
      // Walk the comment extension after the image: blocks must end exactly before the trailer.
      let at = 34;
      assert.deepEqual([b[at], b[at + 1]], [0x21, 0xfe]);
      at += 2;
      while (b[at] !== 0) at += 1 + b[at]!;
      assert.equal(b[at + 1], 0x3b);
      assert.equal(at + 2, b.length);
    }
  }
});

test('JPEG bodies: SOI, segments whose lengths chain to the scan, EOI', () => {
  for (const size of SIZES) {
    const b = imageBody('jpeg', size);
    assert.equal(b.length, Math.max(size, 141));
    assert.deepEqual([b[0], b[1]], [0xff, 0xd8]);
    let at = 2;
    const markers: number[] = [];
    while (b[at] === 0xff && b[at + 1] !== 0xda) {
      markers.push(b[at + 1]!);
      at += 2 + b.readUInt16BE(at + 2);
    }
    assert.equal(b[at + 1], 0xda, 'the scan follows the segments');
    assert.ok(markers.includes(0xc0) && markers.includes(0xc4) && markers.includes(0xdb));
    assert.ok(b.includes(Buffer.from([0xff, 0xd9]), at), 'EOI');
  }
});

test('image formats and text kinds from MIME types', () => {
  assert.equal(imageFormatOf('image/jpeg'), 'jpeg');
  assert.equal(imageFormatOf('image/GIF'), 'gif');
  assert.equal(imageFormatOf('image/webp'), 'png');
  assert.equal(imageFormatOf('image/svg+xml'), undefined);
  assert.equal(imageFormatOf('text/css'), undefined);
  assert.equal(textKindOf('application/x-javascript'), 'js');
  assert.equal(textKindOf('text/html; charset=utf-8'), 'html');
});

test('padText reaches the size with a comment of the language, never cutting the text', () => {
  assert.equal(padText('a=1;', 'js', 100).length, 100);
  assert.match(padText('a=1;', 'js', 100).toString(), /^a=1;\/\* +\*\/$/);
  assert.match(padText('<p>', 'html', 40).toString(), /^<p><!-- +-->$/);
  assert.equal(padText('body{}', 'css', 3).toString(), 'body{}');
  assert.equal(padText('é', 'other', 10).length, 10);
});
