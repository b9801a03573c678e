// Hostile input on every call of /api/openapi.json (fast-check, fixed seed, bounded runs): wrong
// types, missing and extra fields, huge strings and numbers, unicode and control characters, path
// traversal, SQL and script payloads, wrong content types, truncated JSON and multipart bodies,
// sent signed in as the platform administrator and signed out. Every answer is below 500 and the
// JSON envelope; every refusal is a 4xx with a message and leaves the stored data unchanged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startServer, transform, type Client, type TestServer } from './harness';
import { fillPath, readOperations, snapshot, storedIds, type Operation } from './security-support';

const SEED = 20_241_111;
const RUNS = Number(process.env.IAM_FUZZ_RUNS ?? 6);

let server: TestServer;
let admin: Client;
let operations: Operation[] = [];
let ids: string[] = [];
const tally = { requests: 0, serverErrors: 0, accepted: 0, refused: 0, refusedWritesChecked: 0 };

before(async () => {
  server = await startServer();
  admin = await server.admin();
  // Some records, so that real ids reach the handlers (and their body validation) too.
  const tenant = await admin.post<{ id: string }>('/api/tenants', {
    name: 'Fuzz_Tenant',
    type: 'company',
    parentId: (await admin.get<{ id: string }[]>('/api/tenants/tree')).body.data[0]?.id,
  });
  const app = await admin.post<{ id: string }>('/api/apps', { name: 'Fuzz App', code: 'fuzzapp', description: 'fuzz' });
  await admin.post('/api/user', { username: 'fuzz-user', realName: 'Fuzz_User', password: transform('Secret123'), tenantId: tenant.body.data?.id });
  if (app.body.data?.id) {
    await admin.post(`/api/apps/${app.body.data.id}/privileges`, { name: 'Fuzz privilege', key: 'fuzz', parentId: null });
    await admin.post(`/api/apps/${app.body.data.id}/roles`, { name: 'Fuzz role', description: 'fuzz' });
  }
  ids = await storedIds(server.app);
  operations = await readOperations(server.base);
});
after(async () => {
  console.log(
    `fuzz: ${tally.requests} requests over ${operations.length} operations, ${tally.serverErrors} answers ≥ 500, ` +
      `${tally.accepted} accepted, ${tally.refused} refused, ${tally.refusedWritesChecked} refused writes checked against a snapshot`,
  );
  await server.stop();
});

const huge = fc.integer({ min: 1, max: 4 }).map((n) => 'A'.repeat(n * 30_000));
const payloads = fc.constantFrom(
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/dev/null',
  'file:///etc/passwd',
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "admin'--",
  '" OR ""="',
  '1 UNION SELECT secret_hash FROM sessions',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '\u0000abc',
  '\r\nSet-Cookie: x=1',
  '\u202e\u200b\ufeff',
  '😀'.repeat(50),
  '𝕏̸̡̛',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x41',
  '',
  ' ',
  'null',
  'true',
  '[]',
  '{}',
);
const hostileString = fc.oneof(payloads, fc.string({ unit: 'binary', maxLength: 64 }), fc.string({ unit: 'grapheme', maxLength: 32 }), huge);
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const scalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      hostileString.filter((key) => key.length < 200),
      scalar,
      { maxKeys: 4 },
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 200 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown) },
);
const extraKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'id', 'version', 'isAdmin', 'userType', 'tenantId', 'password'),
  fc.string({ maxLength: 20 }),
);

/** A path parameter: hostile text, or the id of a stored record (so the handler reads the body). */
function pathValue(): fc.Arbitrary<string> {
  return fc.oneof(
    hostileString.map((text) => (text === '' || /^\.{1,2}$/.test(text) ? `${text}x` : text.slice(0, 8_000))),
    fc.constantFrom(...ids),
  );
}

/** A multipart body cut anywhere (the content type then names its boundary). */
const truncatedMultipart = fc
  .tuple(fc.constantFrom('file', 'kind', 'x', ''), hostileString, fc.uint8Array({ maxLength: 200 }))
  .chain(([field, name, bytes]) => {
    const full = `--BOUNDARY\r\nContent-Disposition: form-data; name="${field}"; filename="${name.slice(0, 100)}"\r\nContent-Type: image/png\r\n\r\n${Buffer.from(bytes).toString('latin1')}\r\n--BOUNDARY--\r\n`;
    return fc.nat(full.length).map((cut) => full.slice(0, cut));
  });

interface Attempt {
  params: Record<string, string>;
  query: [string, string][];
  body: { kind: 'json'; value: unknown } | { kind: 'text'; contentType: string; text: string } | { kind: 'none' };
}

function bodyFor(operation: Operation): fc.Arbitrary<Attempt['body']> {
  const fields = fc.record(Object.fromEntries(operation.bodyProps.map((name) => [name, hostileValue])), { requiredKeys: [] });
  const object = fc.tuple(fields, fc.dictionary(extraKey, hostileValue, { maxKeys: 3 })).map(([known, extra]) => ({ ...extra, ...known }));
  const json = fc.oneof({ weight: 4, arbitrary: object }, { weight: 1, arbitrary: hostileValue }).map((value) => ({ kind: 'json' as const, value }));
  const text = fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/json',
        'application/json; charset=utf-16',
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
      ),
      fc.oneof(
        object.map((value) => JSON.stringify(value)).chain((full) => fc.nat(full.length).map((cut) => full.slice(0, cut))),
        fc.constantFrom(
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
          'a=1&a=2&__proto__[x]=1',
          '{"a":',
          '\u0000\u0001',
          '',
        ),
        truncatedMultipart,
      ),
    )
    .map(([contentType, body]) => ({ kind: 'text' as const, contentType, text: body }));
  return fc.oneof({ weight: 3, arbitrary: json }, { weight: 2, arbitrary: text }, { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) });
}

function attemptFor(operation: Operation): fc.Arbitrary<Attempt> {
  const params = fc.record(Object.fromEntries(operation.params.map((name) => [name, pathValue()])));
  const known = fc
    .subarray(operation.query)
    .chain((names) => fc.tuple(...names.map((name) => hostileString.map((value): [string, string] => [name, value.slice(0, 4_000)]))));
  const extra = fc.array(
    fc.tuple(
      extraKey,
      hostileString.map((value) => value.slice(0, 200)),
    ),
    { maxLength: 2 },
  );
  const query = fc.tuple(known, extra).map(([a, b]) => [...a, ...b]);
  const body = operation.hasBody || operation.method !== 'GET' ? bodyFor(operation) : fc.constant({ kind: 'none' as const });
  return fc.record({ params, query, body });
}

async function send(client: Client, operation: Operation, attempt: Attempt) {
  const search = new URLSearchParams(attempt.query).toString();
  const path = fillPath(operation.path, (name) => attempt.params[name] ?? 'x') + (search ? `?${search}` : '');
  const headers: Record<string, string> = {};
  let body: unknown;
  if (attempt.body.kind === 'json') body = attempt.body.value ?? null;
  if (attempt.body.kind === 'text') {
    headers['content-type'] =
      attempt.body.contentType.startsWith('multipart') && attempt.body.contentType.endsWith('=x')
        ? 'multipart/form-data; boundary=BOUNDARY'
        : attempt.body.contentType;
  }
  if (attempt.body.kind !== 'text') return { path, response: await client.raw(operation.method, path, operation.method === 'GET' ? undefined : body, headers) };
  // Raw text with its own content type: the harness client only speaks JSON and FormData.
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(client.base + path, {
    method: operation.method,
    headers: { ...headers, ...(cookie ? { cookie } : {}), origin: client.origin ?? client.base },
    body: operation.method === 'GET' ? undefined : attempt.body.text,
  });
  return { path, response };
}

/** The stored data as it was before the current call (kept between calls that cannot change it). */
let stored: Record<string, string> | undefined;

async function check(client: Client, operation: Operation, attempt: Attempt): Promise<void> {
  const write = operation.method !== 'GET';
  stored ??= await snapshot(server.app);
  const { path, response } = await send(client, operation, attempt);
  const text = await response.text();
  tally.requests += 1;
  const where = `${operation.method} ${path.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 500) tally.serverErrors += 1;
  assert.ok(response.status < 500, where);
  if (response.status < 400) stored = undefined; // taken afresh before the next call
  if (response.status >= 300 && response.status < 400) {
    // Redirects (third-party sign-in) stay on our own site, whatever the input: no open redirect.
    tally.accepted += 1;
    const location = response.headers.get('location') ?? '';
    assert.ok(location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\'), `redirect away: ${location} (${where})`);
    return;
  }
  if (response.status < 400) {
    tally.accepted += 1;
    // A link's answer (a file, an image, a CSV, a page) is not the envelope: the document names its media type.
    if (!operation.rawAnswer) assert.equal((JSON.parse(text) as { code: number }).code, 0, where);
    return;
  }
  tally.refused += 1;
  let envelope: { code?: unknown; message?: unknown; data?: unknown };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    assert.fail(`not the JSON envelope: ${where}`);
  }
  assert.ok(response.status >= 400 && response.status < 500, where);
  assert.equal(typeof envelope.code, 'number', where);
  assert.notEqual(envelope.code, 0, where);
  assert.ok(typeof envelope.message === 'string' && envelope.message.length > 0, `no message: ${where}`);
  assert.ok('data' in envelope, where);
  if (write) {
    const after = await snapshot(server.app);
    assert.deepEqual(after, stored, `a refused write changed stored data: ${where}`);
    stored = after;
    tally.refusedWritesChecked += 1;
  }
}

/** Signing out would end the fuzz for the administrator: that one call is fuzzed signed out only. */
const endsOwnSession = (operation: Operation) => operation.path === '/api/cas/logout';

describe('every OpenAPI operation under hostile input', () => {
  test('the document lists the calls to fuzz', () => {
    assert.ok(operations.length >= 50, `only ${operations.length} operations`);
  });

  // Operations are read in before(); node:test needs the tests declared now, so one test walks them.
  for (const identity of ['signed out', 'platform administrator'] as const) {
    test(`${identity}: no 5xx, the envelope with a 4xx and a message, no change on refusal`, async () => {
      for (const operation of operations) {
        if (identity === 'platform administrator' && endsOwnSession(operation)) continue;
        const client = identity === 'signed out' ? server.client() : admin;
        await fc.assert(
          fc.asyncProperty(attemptFor(operation), (attempt) => check(client, operation, attempt)),
          {
            seed: SEED,
            numRuns: RUNS,
            endOnFailure: true,
          },
        );
        if (identity === 'platform administrator' && (await admin.get('/api/cas/session')).status !== 200) {
          assert.fail(`${operation.method} ${operation.path} ended the administrator's session`);
        }
      }
    });
  }
});
