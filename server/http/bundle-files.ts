// How the browser bundle is served under /dist/: the build writes a Brotli (.br) and a gzip (.gz)
// copy next to each file (scripts/precompress.mjs), sent as they are to a browser that accepts
// them; the chunks, whose names carry a hash of their content (rollup.config.mjs writes them to
// chunks/), are cached for a year without revalidation, and the entry files, whose names stay the
// same from one release to the next, are revalidated on every use.
import { sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const hashedFileCaching = 'public, max-age=31536000, immutable';
export const entryFileCaching = 'no-cache';

export async function bundleFiles(app: FastifyInstance, { root }: { root: string }): Promise<void> {
  const chunks = `${root.replace(/[\\/]$/, '')}${sep}chunks${sep}`;
  // Caches must keep the compressed and the plain answers apart (CORS has already said `Origin`).
  app.addHook('onSend', async (_request, reply) => {
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
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
