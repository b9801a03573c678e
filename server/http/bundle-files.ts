// How the browser bundle is served under /dist/: the build writes a Brotli (.br) and a gzip (.gz)
// copy next to each file (scripts/precompress.mjs), sent as they are to a browser that accepts
// them; the chunks, whose names carry a hash of their content (rollup.config.mjs writes them to
// chunks/), are cached for a year without revalidation, and the entry files, whose names stay the
// same from one release to the next, are revalidated on every use. A script or stylesheet whose
// copies are missing (a bundle built without them, a file copied in by hand) is compressed on its
// first request and kept in memory: never sent uncompressed to a browser that accepts br or gzip.
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const hashedFileCaching = 'public, max-age=31536000, immutable';
const entryFileCaching = 'no-cache';

type Encoding = 'br' | 'gzip';

/** The encoding to send: br when accepted, else gzip, else none (q=0 refuses one). */
function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Set(
    String(header ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*/))
      .filter(([, ...parameters]) => !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter)))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/** Scripts and stylesheets: the text the build makes and a page waits for. */
const COMPRESSIBLE = /\b(javascript|css)\b/;
/** Brotli's quality for files compressed while serving: close to the build's 11 at a fraction of its time. */
const BROTLI_QUALITY = 9;
/** At most this many bytes of compressed copies in memory (a bundle is a few MiB). */
const CACHE_BYTES = 32 * 1024 * 1024;

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    promisify(brotliCompress)(data, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/** Compressed copies by encoding, path and validator (a changed file gets a new ETag), oldest first. */
class CompressedCopies {
  private copies = new Map<string, Promise<Buffer>>();
  private sizes = new Map<string, number>();
  private bytes = 0;

  get(key: string, encoding: Encoding, plain: () => Promise<Buffer>): Promise<Buffer> {
    let copy = this.copies.get(key);
    if (!copy) {
      copy = plain().then((data) => compressors[encoding](data));
      this.copies.set(key, copy);
      copy.then(
        (data) => this.keep(key, data.length),
        () => this.copies.delete(key),
      );
    }
    return copy;
  }

  private keep(key: string, size: number) {
    this.sizes.set(key, size);
    this.bytes += size;
    for (const [oldest, oldestSize] of this.sizes) {
      if (this.bytes <= CACHE_BYTES) break;
      this.sizes.delete(oldest);
      this.copies.delete(oldest);
      this.bytes -= oldestSize;
    }
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as string));
  return Buffer.concat(parts);
}

/** Whether some script or stylesheet under `dir` has no Brotli copy beside it. */
function missesCopies(dir: string): boolean {
  const names = new Set(readdirSync(dir, { recursive: true, encoding: 'utf8' }));
  return [...names].some((name) => /\.(m?js|css)$/.test(name) && !names.has(`${name}.br`));
}

export async function bundleFiles(app: FastifyInstance, { root }: { root: string }): Promise<void> {
  const chunks = `${root.replace(/[\\/]$/, '')}${sep}chunks${sep}`;
  const copies = new CompressedCopies();
  if (missesCopies(root)) app.log.warn(`${root} has scripts without their .br/.gz copies (npm run build writes them): compressing them while serving`);
  // Caches must keep the compressed and the plain answers apart (CORS has already said `Origin`).
  app.addHook('onSend', async (request, reply, payload) => {
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    const type = String(reply.getHeader('content-type') ?? '');
    if (!encoding || reply.statusCode !== 200 || request.method !== 'GET' || reply.getHeader('content-encoding') || !COMPRESSIBLE.test(type)) return payload;
    const etag = String(reply.getHeader('etag') ?? reply.getHeader('last-modified') ?? '');
    const compressed = await copies.get(`${encoding} ${request.url.split('?')[0]} ${etag}`, encoding, () => readAll(payload as Readable));
    // The stream of the plain file is not read when the copy is already made.
    if (typeof (payload as Readable | undefined)?.destroy === 'function') (payload as Readable).destroy();
    reply.header('content-encoding', encoding).header('content-length', compressed.length);
    // Another representation of the same file: a weak validator (as nginx's gzip makes it).
    if (reply.getHeader('etag')) reply.header('etag', `W/${etag.replace(/^W\//, '')}`);
    return compressed;
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/dist/',
    decorateReply: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(response, path) {
      response.setHeader('cache-control', path.startsWith(chunks) ? hashedFileCaching : entryFileCaching);
    },
  });
}
