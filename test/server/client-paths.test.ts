// Every call the core's API client makes (src/core/api) is one the server documents: its method
// and path template are in /api/openapi.json. Most calls go through `call`/`callList` with a
// declaration of src/core/contract, which the server registers itself (route()): each declaration
// must be one the document has (a declaration no route registers would answer 404). The calls
// still written by hand are read from the client's source, where each is written
// `request('METHOD', path)`, `requestList(path)` (GET) or `apiUrl(path)` (GET, an image or a page
// the browser loads), the path a literal or an apiPath`…` template. And every resource of the
// document has its row in docs/architecture.md's feature map.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { featureMap } from '../feature-map';
import { startServer, type TestServer } from './harness';
import { readOperations } from './security-support';

const API_DIR = join(import.meta.dirname, '../../src/core/api');
const CONTRACT_DIR = join(import.meta.dirname, '../../src/core/contract');

interface ClientCall {
  where: string;
  method: string;
  /** The path with each parameter as {}; a path ending in '/' is a prefix the client builds on. */
  path: string;
}

const PATH = String.raw`(?:'([^']*)'|(?:apiPath)?\x60([^\x60]*)\x60)`;
const GENERIC = String.raw`(?:<[^(]*?>)?`;
const CALL_FORMS: { pattern: RegExp; method?: string }[] = [
  { pattern: new RegExp(String.raw`\brequest${GENERIC}\(\s*'([A-Z]+)',\s*${PATH}`, 'g') },
  { pattern: new RegExp(String.raw`\brequestList${GENERIC}\(\s*${PATH}`, 'g'), method: 'GET' },
  { pattern: new RegExp(String.raw`\bapiUrl\(\s*${PATH}`, 'g'), method: 'GET' },
];
const ANY_CALL = /\b(?:request|requestList|apiUrl)\b(?:<[^(]*?>)?\(/g;

const template = (path: string) => path.replace(/\$\{[^}]*\}/g, '{}');

/** The client's sources by file name. call.ts sends what a declaration says (checked below). */
const apiSources = () =>
  new Map(
    readdirSync(API_DIR)
      .filter((name) => name.endsWith('.ts') && name !== 'call.ts')
      .map((name) => [name, readFileSync(join(API_DIR, name), 'utf8')]),
  );

function clientCalls(sources = apiSources()): { calls: ClientCall[]; unread: string[] } {
  const calls: ClientCall[] = [];
  const unread: string[] = [];
  for (const [file, source] of sources) {
    const read = new Set<number>();
    for (const { pattern, method } of CALL_FORMS) {
      for (const match of source.matchAll(pattern)) {
        const [, first, literal, templated] = method ? [match[0], undefined, match[1], match[2]] : match;
        const where = `${file}:${source.slice(0, match.index).split('\n').length}`;
        calls.push({ where, method: method ?? first!, path: template(literal ?? templated ?? '') });
        read.add(match.index);
      }
    }
    for (const match of source.matchAll(ANY_CALL)) {
      if (!read.has(match.index)) unread.push(`${file}:${source.slice(0, match.index).split('\n').length}`);
    }
  }
  return { calls, unread };
}

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

  before(async () => {
    server = await startServer();
    const operations = await readOperations(server.base);
    const relative = (path: string) => template(path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, '${}'));
    documented = new Set(operations.map((operation) => `${operation.method} ${relative(operation.path)}`));
    documentedPaths = operations.map((operation) => relative(operation.path));
  });
  after(() => server.stop());

  const undocumented = (calls: ClientCall[]) =>
    calls.filter(({ method, path }) =>
      path.endsWith('/') ? !documentedPaths.some((documentedPath) => documentedPath.startsWith(path)) : !documented.has(`${method} ${path}`),
    );

  it('reads every hand-written call of src/core/api (none written in another form)', () => {
    const { calls, unread } = clientCalls();
    assert.deepEqual(
      unread,
      [],
      'calls this test cannot read: write them as call(…) with a declaration, or request(…)/requestList(…)/apiUrl(…) with a literal or apiPath path',
    );
    assert.ok(calls.length > 0, 'no hand-written call found: the reader no longer matches the client');
  });

  it('finds each hand-written call, method and path template, in /api/openapi.json', () => {
    assert.deepEqual(undocumented(clientCalls().calls), [], 'client calls the server does not have');
  });

  it('refuses a hand-written call to a path the server does not have', () => {
    const made = clientCalls(new Map([['made-up.ts', "request<void>('GET', apiPath`/no-such-resource/${id}`);\nrequestList('/apps/');"]]));
    assert.deepEqual(
      undocumented(made.calls).map(({ method, path }) => `${method} ${path}`),
      ['GET /no-such-resource/{}'],
    );
  });

  it('finds each declaration of src/core/contract, method and path template, in /api/openapi.json', async () => {
    const declared = await declaredCalls();
    assert.ok(declared.length >= 60, `only ${declared.length} declarations found`);
    assert.deepEqual(undocumented(declared), [], 'declarations no route registers');
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
