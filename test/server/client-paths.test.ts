// Every call the browser makes is a declaration of src/core/contract (a JSON call, sent with
// `call`/`callList`, or a link, whose address `urlOf` builds: an image, a download, a redirect), and
// the server registers each declaration itself (route(), linkRoute()): each must be one
// /api/openapi.json has (a declaration no route registers would answer 404). No call is written by
// hand: eslint.config.js refuses request(…), requestList(…) and apiUrl(…) outside
// src/core/api/call.ts and src/core/http.ts. And every resource of the document has its row in
// docs/architecture.md's feature map.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { featureMap } from '../feature-map';
import { startServer, type TestServer } from './harness';
import { readOperations, type Operation } from './security-support';
import * as saml from '../../src/core/contract/saml';
import { samlBindingFields } from '../../src/core/schemas/saml';

const CONTRACT_DIR = join(import.meta.dirname, '../../src/core/contract');

interface ClientCall {
  where: string;
  method: string;
  /** The path with each parameter as {}. */
  path: string;
}

const template = (path: string) => path.replace(/\$\{[^}]*\}/g, '{}');

/** Every declaration of src/core/contract: its method and path with each parameter as {}. */
async function declaredCalls(): Promise<ClientCall[]> {
  const declared: ClientCall[] = [];
  for (const file of readdirSync(CONTRACT_DIR).filter((name) => name.endsWith('.ts') && name !== 'declare.ts')) {
    const module = (await import(join(CONTRACT_DIR, file))) as Record<string, { method?: unknown; path?: unknown }>;
    for (const [name, declaration] of Object.entries(module)) {
      if (typeof declaration.method === 'string' && typeof declaration.path === 'string')
        declared.push({ where: `${file} ${name}`, method: declaration.method, path: declaration.path.replace(/:\w+/g, '{}') });
    }
  }
  return declared;
}

describe('the API client against the OpenAPI document', () => {
  let server: TestServer;
  let documented: Set<string>;
  let documentedPaths: string[];
  let operations: Operation[];

  before(async () => {
    server = await startServer();
    operations = await readOperations(server.base);
    const relative = (path: string) => template(path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, '${}'));
    documented = new Set(operations.map((operation) => `${operation.method} ${relative(operation.path)}`));
    documentedPaths = operations.map((operation) => relative(operation.path));
  });
  after(() => server.stop());

  const undocumented = (calls: ClientCall[]) => calls.filter(({ method, path }) => !documented.has(`${method} ${path}`));

  it('finds each declaration of src/core/contract, method and path template, in /api/openapi.json', async () => {
    const declared = await declaredCalls();
    assert.ok(declared.length >= 60, `only ${declared.length} declarations found`);
    assert.deepEqual(undocumented(declared), [], 'declarations no route registers');
  });

  it('declares every operation of /api/openapi.json in src/core/contract (none registered by hand)', async () => {
    const declared = new Set((await declaredCalls()).map(({ method, path }) => `${method} ${path}`));
    // The orchestrator's probes (server/routes/health.ts) are plain routes: no session, no browser.
    const probes = new Set(['GET /health/live', 'GET /health/ready']);
    assert.deepEqual(
      [...documented].filter((operation) => !declared.has(operation) && !probes.has(operation)),
      [],
      'operations registered without a declaration',
    );
  });

  it('documents the SAML protocol bindings with their parameters (query or posted form, the chain), as cross-site, answering a redirect or a page', () => {
    const operation = (method: string, path: string) =>
      operations.find((each) => each.method === method && each.path === `/api${path.replace(/:(\w+)/g, '{$1}')}`);
    const fields = Object.keys(samlBindingFields.entries);
    for (const binding of [saml.getSamlSso, saml.getSamlSlo, saml.postSamlSso, saml.postSamlSlo, saml.getSamlLogoutStep]) {
      const documented = operation(binding.method, binding.path);
      const where = `${binding.method} ${binding.path}`;
      assert.ok(documented, where);
      assert.equal(documented.crossSite, true, where);
      assert.equal(documented.rawAnswer, true, where);
      if (binding.path === saml.getSamlLogoutStep.path) assert.deepEqual(documented.params, ['chain'], where);
      else if (binding.method === 'GET') assert.deepEqual(documented.query, fields, where);
      else assert.equal(documented.hasBody, true, where);
    }
  });

  it("gives every resource of /api/openapi.json (its path's first segment) a row in docs/architecture.md's feature map", () => {
    const urls = featureMap().flatMap((row) => [...row.url.matchAll(/`(\/[^`/…]+)/g)].map((match) => match[1]));
    const resources = [...new Set(documentedPaths.map((path) => `/${path.split('/')[1]}`))];
    assert.ok(resources.length >= 20, resources.join(' '));
    assert.deepEqual(
      resources.filter((resource) => !urls.includes(resource)),
      [],
      'resources without a row in the feature map',
    );
  });
});
