// What Fastify does with the routes' JSON Schemas, and the OpenAPI document built from them
// (/api/openapi.json). Requests are validated by the shared valibot schemas inside each route (see
// http/route.ts): the JSON Schemas Fastify holds describe the routes, nothing more.
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { SwaggerOptions } from '@fastify/swagger';
import { lazy } from '../lazy';

/** Compilers that validate nothing and serialize with JSON.stringify (Fastify types these
 *  factories after ajv's own, hence the cast). Given to Fastify, it does not load its own
 *  compilers (ajv, fast-json-stringify) at all; the server build leaves them out. */
export const descriptionOnlySchemas = {
  buildValidator: () => () => (data: unknown) => ({ value: data }),
  buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

const notServed = () => {
  throw new Error('the OpenAPI description instance serves no requests');
};

/**
 * The OpenAPI document of every route `app` gets from now on, built by @fastify/swagger when it is
 * first asked for. The plugin (with its YAML writer and schema resolver, about 250 KiB of the
 * compiled server) is not loaded at start: the routes are recorded as they are added, and the first
 * call gives the same routes, without handlers, to a description-only Fastify instance with the
 * plugin, whose document is then kept.
 */
export function openApiDocument(app: FastifyInstance, options: SwaggerOptions): () => Promise<unknown> {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  return lazy(async () => {
    const { default: swagger } = await import('@fastify/swagger');
    const describer = Fastify({ schemaController: { compilersFactory: descriptionOnlySchemas } });
    await describer.register(swagger, options);
    // HEAD routes are recorded as Fastify added them (the plugin leaves them out of the document).
    for (const { method, url, schema, config } of routes) describer.route({ method, url, schema, config, exposeHeadRoute: false, handler: notServed });
    await describer.ready();
    const document = describer.swagger();
    await describer.close();
    return document;
  });
}
