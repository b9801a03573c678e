// The multipart parser (@fastify/multipart) for the route plugins that take an upload (a file, the
// user import), registered in their scope only: its three hooks (an async onRequest that listens
// for the socket's close, an async preValidation, an async onResponse) would otherwise run on every
// request the server answers, each session check and health check included, and do nothing there.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { MAX_UPLOAD_BYTES } from '../files/limits';

/** Lets the routes of `app` (a route plugin's own scope) read multipart uploads. */
export async function acceptUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 5 } });
}
