import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsNoElement } from './element-free.ts';

test('a body of no bytes, whitespace, a doctype, comments or bare text holds no element', () => {
  for (const body of ['', ' \n', '<!DOCTYPE html>', '<!DOCTYPE html><!--          -->', '<!-- <img src=a.png> -->', 'OK', '<!DOCTYPE html><!-- unterminated <p>'])
    assert.equal(holdsNoElement(body, Buffer.byteLength(body)), true, JSON.stringify(body));
});

test('a tag, even an end tag or one after a comment, is an element', () => {
  for (const body of ['<p>', '</p>', '<!-- x --><img src=a.png>', '<!DOCTYPE html>\n<html>', 'text <b>bold</b>'])
    assert.equal(holdsNoElement(body, Buffer.byteLength(body)), false, JSON.stringify(body));
});

test('without the source, only a 0-byte body is known to hold none', () => {
  assert.equal(holdsNoElement(undefined, 0), true);
  assert.equal(holdsNoElement(undefined, 15), false);
});
