// The answers Fastify and Node give before any hook of ours runs — a URL that is not valid
// percent-encoding, a path parameter too long, a request line or headers Node cannot parse — in
// the envelope and with the same security headers as every other answer.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { failure } from './envelope';
import { answerLanguage, localizeMessage } from './language';

/** helmet's middleware (Express style). */
export type HeaderMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const frameworkMessages: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'A part of the URL is too long',
};

/** Fastify's frameworkErrors option. */
export function frameworkErrorAnswer(securityHeaders: HeaderMiddleware) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    const message = status === 500 ? 'Internal Server Error' : (frameworkMessages[error.code] ?? STATUS_CODES[status] ?? 'Bad Request');
    securityHeaders(request.raw, reply.raw, () => {
      void reply.status(status).send(failure(status, localizeMessage(message, answerLanguage(request.headers['accept-language']))));
    });
  };
}

/** The headers the middleware sets on every answer (ours hold no per-request value such as a nonce). */
function fixedHeaders(securityHeaders: HeaderMiddleware): string {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  securityHeaders({ headers: {} } as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return [...headers].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

/** Fastify's clientErrorHandler option: what Node could not parse as an HTTP request. */
export function clientErrorAnswer(securityHeaders: HeaderMiddleware) {
  const headers = fixedHeaders(securityHeaders);
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const reason = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify(failure(status, reason));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `connection: close\r\n${headers}\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
