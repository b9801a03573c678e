// A real HTTP server on 127.0.0.1 for the core's client tests: each test installs handlers per
// "METHOD /path" and reads back the requests the client made.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface Reply {
  status?: number;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

type Handler = (request: RecordedRequest) => Reply;

export interface ApiServer {
  /** The API base, e.g. http://127.0.0.1:12345/api */
  apiBase: string;
  origin: string;
  requests: RecordedRequest[];
  handle(route: string, handler: Handler | Reply): void;
  reset(): void;
  close(): Promise<void>;
}

export const ok = (data: unknown, message = 'ok'): Reply => ({ body: { code: 0, message, data } });
export const fail = (status: number, message: string, data: unknown = null, code = status): Reply => ({ status, body: { code, message, data } });

export async function startApiServer(): Promise<ApiServer> {
  const handlers = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname.replace(/^\/api/, '');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body, json };
      requests.push(recorded);
      const handler = handlers.get(`${recorded.method} ${path}`);
      const reply = handler ? handler(recorded) : { status: 404, body: { code: 404, message: `No handler for ${recorded.method} ${path}`, data: null } };
      const send = () => {
        if (res.destroyed) return;
        res.statusCode = reply.status ?? 200;
        res.setHeader('content-type', reply.contentType ?? (reply.raw !== undefined ? 'text/html' : 'application/json'));
        res.end(reply.raw ?? JSON.stringify(reply.body ?? null));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiBase: `${origin}/api`,
    origin,
    requests,
    handle(route, handler) {
      handlers.set(route, typeof handler === 'function' ? handler : () => handler);
    },
    reset() {
      handlers.clear();
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
