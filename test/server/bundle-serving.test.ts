// How the server sends the browser bundle under /dist/: the Brotli or gzip copy the build wrote
// (scripts/precompress.mjs) to a browser that accepts it, hashed chunks cached for a year as
// immutable, entry files revalidated; and the folders it serves are its own (beside the server's
// files), not those of the directory it was started from. A script or stylesheet without those
// copies is compressed while serving (kept in memory), never sent plain to a browser accepting br or gzip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../../scripts/precompress.mjs';
import { createTestDatabase, startServer, type TestServer } from './harness';
import { spawnServer } from './crash-process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const staticDir = mkdtempSync(join(tmpdir(), 'iam-bundle-'));
const dist = join(staticDir, 'dist');
const entry = `export const text = ${JSON.stringify('entry file '.repeat(400))};\n`;
const chunk = `export const text = ${JSON.stringify('hashed chunk '.repeat(400))};\n`;
/** Files the build's compression did not reach. */
const uncopied = `export const text = ${JSON.stringify('a chunk without copies '.repeat(400))};\n`;
const stylesheet = `.iam-page { color: #0a0; }\n`.repeat(200);
let server: TestServer;

before(async () => {
  mkdirSync(join(dist, 'chunks'), { recursive: true });
  writeFileSync(join(dist, 'elements.js'), entry);
  writeFileSync(join(dist, 'chunks', 'LoginScreen-B3xQ9a_Z.js'), chunk);
  assert.equal(precompress(dist), 2);
  writeFileSync(join(dist, 'chunks', 'Uncopied-Q1w2e3r4.js'), uncopied);
  writeFileSync(join(dist, 'console.css'), stylesheet);
  server = await startServer({ staticRoots: { dist } });
});

after(async () => {
  await server?.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

/** The raw answer (fetch would decompress the body and hide what was sent). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }));
    })
      .on('error', reject)
      .end();
  });
}

test('a browser accepting br gets the Brotli file the build wrote, labelled br', async () => {
  const answer = await get(`${server.base}/dist/elements.js`, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-encoding'], 'br');
  assert.match(String(answer.headers['content-type']), /javascript/);
  assert.match(String(answer.headers.vary), /accept-encoding/i);
  assert.deepEqual(answer.body, readFileSync(join(dist, 'elements.js.br')));
  assert.equal(brotliDecompressSync(answer.body).toString(), entry);
  assert.ok(answer.body.length < entry.length / 10, `compressed: ${answer.body.length} bytes`);
});

test('a browser accepting only gzip gets the gzip file; one accepting nothing gets the file itself', async () => {
  const gzip = await get(`${server.base}/dist/elements.js`, { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(gzip.body, readFileSync(join(dist, 'elements.js.gz')));
  const plain = await get(`${server.base}/dist/elements.js`);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), entry);
});

test('a script or stylesheet without copies is compressed while serving: br, else gzip, plain only to a browser accepting neither', async () => {
  const url = `${server.base}/dist/chunks/Uncopied-Q1w2e3r4.js`;
  const first = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(first.status, 200);
  assert.equal(first.headers['content-encoding'], 'br');
  assert.match(String(first.headers['content-type']), /javascript/);
  assert.equal(brotliDecompressSync(first.body).toString(), uncopied);
  assert.ok(first.body.length < uncopied.length / 10, `compressed: ${first.body.length} of ${uncopied.length} bytes`);
  assert.equal(Number(first.headers['content-length']), first.body.length);
  assert.equal(first.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(first.headers.vary), /accept-encoding/i);
  const again = await get(url, { 'accept-encoding': 'br' });
  assert.deepEqual(again.body, first.body, 'the copy kept in memory');
  const gzipped = await get(url, { 'accept-encoding': 'gzip, br;q=0' });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gzipped.body).toString(), uncopied);
  const css = await get(`${server.base}/dist/console.css`, { 'accept-encoding': 'gzip' });
  assert.equal(css.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(css.body).toString(), stylesheet);
  const plain = await get(url, { 'accept-encoding': 'identity' });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), uncopied);
  const revalidated = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
  assert.equal(revalidated.status, 304, 'the compressed answer revalidates');
});

test('a file changed on disk is compressed again, not answered from the old copy', async () => {
  const url = `${server.base}/dist/console.css`;
  const before = await get(url, { 'accept-encoding': 'br' });
  assert.equal(brotliDecompressSync(before.body).toString(), stylesheet);
  const changed = `${stylesheet}.iam-extra { margin: 0; }\n`;
  writeFileSync(join(dist, 'console.css'), changed);
  const after = await get(url, { 'accept-encoding': 'br' });
  assert.equal(brotliDecompressSync(after.body).toString(), changed);
  writeFileSync(join(dist, 'console.css'), stylesheet);
});

test('hashed chunks are cached for a year as immutable; entry files are revalidated', async () => {
  for (const encoding of ['br', 'gzip', 'identity']) {
    const hashed = await get(`${server.base}/dist/chunks/LoginScreen-B3xQ9a_Z.js`, { 'accept-encoding': encoding });
    assert.equal(hashed.status, 200);
    assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable', encoding);
    const unhashed = await get(`${server.base}/dist/elements.js`, { 'accept-encoding': encoding });
    assert.equal(unhashed.headers['cache-control'], 'no-cache', encoding);
    assert.ok(unhashed.headers.etag ?? unhashed.headers['last-modified'], 'a validator for the revalidation');
  }
});

test("the server started from another folder serves its own page and bundle, not that folder's files", async () => {
  const host = mkdtempSync(join(tmpdir(), 'iam-host-folder-'));
  mkdirSync(join(host, 'dist'));
  mkdirSync(join(host, 'server/public'), { recursive: true });
  writeFileSync(join(host, 'dist/elements.js'), "/* the host's own file */");
  writeFileSync(join(host, 'server/public/index.html'), "<p>the host's own page</p>");
  const database = await createTestDatabase();
  const child = await spawnServer(database, {}, host);
  try {
    const page = await (await fetch(`${child.base}/`)).text();
    assert.doesNotMatch(page, /the host's own page/);
    assert.match(page, /<iam-console/);
    const bundle = await fetch(`${child.base}/dist/elements.js`);
    const ownBundle = join(root, 'dist/elements.js');
    if (existsSync(ownBundle)) assert.equal(await bundle.text(), readFileSync(ownBundle, 'utf8'));
    else assert.equal(bundle.status, 404);
  } finally {
    await child.stop();
    await database.drop();
    rmSync(host, { recursive: true, force: true });
  }
});
