// Uploads: type by content, size per purpose, favicon square, polyglots, SVG sanitising, and how
// files are served (content-addressed, nosniff, sandboxing CSP).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pngChunk } from '../e2e/images';
import { startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

/** A PNG of the given size; `payload` pads its IDAT (to make large files). */
function png(width: number, height: number, payload = Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', payload),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO holding one PNG image of width × height. */
function ico(width: number, height: number): Buffer {
  const image = png(width, height);
  const dir = Buffer.alloc(22);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(1, 4);
  dir[6] = width % 256;
  dir[7] = height % 256;
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(22, 18);
  return Buffer.concat([dir, image]);
}

async function upload(bytes: Buffer | string, purpose: string, client = admin, name = 'file.bin') {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  return client.request<{ url: string; fields: { field: string; rule: string }[] }>('POST', `/api/file/upload?purpose=${purpose}`, form);
}

test('an image is stored by content address and served back with safe headers', async () => {
  const image = png(32, 32);
  const first = await upload(image, 'avatar');
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.match(first.body.data.url, /^[0-9a-f]{64}\.png$/);
  const again = await upload(image, 'icon');
  assert.equal(again.body.data.url, first.body.data.url, 'same bytes, same address');
  const served = await fetch(`${server.base}/api/file/get/${first.body.data.url}`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');
  assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
  assert.match(served.headers.get('content-security-policy') ?? '', /sandbox/);
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), image);
  assert.equal((await fetch(`${server.base}/api/file/get/${'0'.repeat(64)}.png`)).status, 404);
  assert.equal((await fetch(`${server.base}/api/file/get/..%2Fetc%2Fpasswd`)).status, 400);
});

test('wrong types are refused by content, whatever the name says', async () => {
  const text = await upload('just text, named .png', 'image', admin, 'fake.png');
  assert.equal(text.status, 400);
  assert.deepEqual(text.body.data.fields, [{ field: 'file', rule: 'upload.wrongType' }]);
  const icoAsIcon = await upload(ico(16, 16), 'icon');
  assert.deepEqual(icoAsIcon.body.data.fields, [{ field: 'file', rule: 'upload.iconType' }]);
  const pngAsFavicon = await upload(png(16, 16), 'favicon');
  assert.deepEqual(pngAsFavicon.body.data.fields, [{ field: 'file', rule: 'upload.faviconType' }]);
  const noPurpose = await upload(png(16, 16), 'banner');
  assert.equal(noPurpose.status, 400);
});

test('size limits per purpose, and a hard cap for the request', async () => {
  const big = png(64, 64, randomBytes(160 * 1024));
  const icon = await upload(big, 'icon');
  assert.deepEqual(icon.body.data.fields, [{ field: 'file', rule: 'upload.iconTooLarge' }]);
  assert.equal((await upload(big, 'avatar')).status, 200, 'an avatar may be larger');
  const huge = await upload(png(64, 64, randomBytes(2 * 1024 * 1024)), 'avatar');
  assert.equal(huge.status, 413);
  assert.equal(huge.body.code, 413);
});

test('a favicon must be square', async () => {
  assert.deepEqual((await upload(ico(16, 32), 'favicon')).body.data.fields, [{ field: 'file', rule: 'upload.faviconSquare' }]);
  assert.equal((await upload(ico(32, 32), 'favicon')).status, 200);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>';
  assert.equal((await upload(svg, 'favicon')).status, 200);
});

test('polyglots are refused', async () => {
  const appended = await upload(Buffer.concat([png(8, 8), Buffer.from('<script>alert(1)</script>')]), 'avatar');
  assert.deepEqual(appended.body.data.fields, [{ field: 'file', rule: 'upload.polyglot' }]);
  const gif = Buffer.concat([
    Buffer.from('GIF89a'),
    Buffer.from([1, 0, 1, 0, 0, 0, 0]),
    Buffer.from('/*<html><script>alert(1)</script>*/'),
    Buffer.from([0x3b]),
  ]);
  assert.deepEqual((await upload(gif, 'avatar')).body.data.fields, [{ field: 'file', rule: 'upload.polyglot' }]);
});

test('SVG is sanitised: no script, handlers, foreignObject or javascript: links survive', async () => {
  const entities = await upload('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>', 'image');
  assert.equal(entities.status, 400, 'a DTD with entities is not taken as an SVG');
  const evil = `<?xml version="1.0"?><!-- a comment -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
<script>alert(2)</script><foreignObject><iframe src="javascript:alert(3)"></iframe></foreignObject>
<a href="javascript:alert(4)"><rect width="10" height="10" fill="red" onclick="alert(5)"/></a>
<use xlink:href="http://evil.test/x.svg#a"/><use href="#ok"/><circle id="ok" cx="5" cy="5" r="4"/></svg>`;
  const answer = await upload(evil, 'image');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const served = await fetch(`${server.base}/api/file/get/${answer.body.data.url}`);
  assert.equal(served.headers.get('content-type'), 'image/svg+xml');
  assert.match(served.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
  const text = await served.text();
  assert.match(text, /^<svg/);
  assert.match(text, /viewBox="0 0 10 10"/);
  assert.match(text, /<rect[^>]*fill="red"/);
  assert.match(text, /<circle id="ok"/);
  for (const bad of [/script/i, /onload/i, /onclick/i, /foreignObject/i, /iframe/i, /javascript:/i, /evil\.test/, /<\?xml/, /comment/]) {
    assert.doesNotMatch(text, bad);
  }
});

test('uploading needs a session and our Origin', async () => {
  const anonymous = await upload(png(8, 8), 'avatar', server.client());
  assert.equal(anonymous.status, 401);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png(8, 8))]), 'a.png');
  const crossSite = await admin.request('POST', '/api/file/upload?purpose=avatar', form, { origin: 'http://evil.test' });
  assert.equal(crossSite.status, 403);
});
