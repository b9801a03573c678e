// The third-party host of demo/third-party.html: a second origin serving /demo/ and /dist/ under
// the strict CSP, widened only to let the page call (and show captcha images of) the IAM server.
// Usage: node demo/third-party-server.mjs [--port 4174] [--api http://127.0.0.1:3000]
// (start the IAM server with IAM_CORS_ORIGINS=http://127.0.0.1:4174).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const served = { '/demo/': resolve(root, 'demo'), '/dist/': resolve(root, 'dist') };
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json' };

/** The file a request path names inside one of the served folders, or undefined. */
function fileOf(pathname) {
  for (const [prefix, folder] of Object.entries(served)) {
    if (!pathname.startsWith(prefix)) continue;
    const file = resolve(folder, `.${decodeURIComponent(pathname.slice(prefix.length - 1))}`);
    if (!file.startsWith(folder + sep)) return undefined;
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The strict CSP, plus calls to the IAM server's origin (its captcha images arrive as blob: URLs). */
function policyFor(apiOrigin) {
  const api = new URL(apiOrigin).origin;
  return `default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ${api}; img-src 'self' data: blob:`;
}

/**
 * Starts the third-party host. `apiOrigin` is the IAM server's origin, or a function answering it
 * (a test starts this host first: the IAM server must know its origin). Resolves to { url, stop }.
 */
export function startThirdPartyServer({ port = 0, apiOrigin }) {
  const server = createServer((request, response) => {
    const csp = policyFor(typeof apiOrigin === 'function' ? apiOrigin() : apiOrigin);
    const file = fileOf(new URL(request.url ?? '/', 'http://host').pathname);
    if (!file || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolveStart) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolveStart({ url: `http://127.0.0.1:${actual}`, stop: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '4174' }, api: { type: 'string', default: 'http://127.0.0.1:3000' } } });
  const { url } = await startThirdPartyServer({ port: Number(values.port), apiOrigin: values.api });
  console.log(`third-party page: ${url}/demo/third-party.html?api=${values.api}/api`);
}
