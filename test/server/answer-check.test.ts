// The answer check (server/http/answer-check.ts) that the harness turns on for every server test:
// an answer that drifts from its route's response schema fails with 500 naming the drift, so the
// rest of the server suite proves every answer it sees matches the wire contract.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, type App } from '../../server/app';
import { createGate } from '../../server/auth/gate';
import { cutTo } from '../../server/http/answer-cut';
import { defineRoute } from '../../server/http/route';
import { user } from '../../src/core/schemas/users';
import { ADMIN, createTestDatabase, type TestDatabase } from './harness';

const validUser = {
  id: 'u1',
  username: 'someone',
  realName: 'Someone',
  version: 1,
  availabilityStatus: 1,
  extraProp: {},
  isAdmin: false,
  isMaster: false,
  locked: false,
  createdAt: 1,
};

describe('the answer check', () => {
  let database: TestDatabase;
  let app: App;

  before(async () => {
    database = await createTestDatabase();
    app = await buildApp({ ...database.options, adminUsername: ADMIN.username, adminPassword: ADMIN.password, checkAnswers: true });
    // Routes of the real server, declared the way every route is, answering drifted users.
    const gate = createGate(app.ctx);
    const answering = (url: string, data: unknown) =>
      defineRoute(app, gate, { method: 'GET', url, summary: url, tags: ['test'], access: 'public', response: user, handler: async () => data });
    answering('/drift/valid', validUser);
    answering('/drift/missing', { ...validUser, createdAt: undefined });
    answering('/drift/wrong-type', { ...validUser, isAdmin: 1 });
    answering('/drift/extra', { ...validUser, passwordHash: 'secret' });
    answering('/drift/nested-extra', { ...validUser, extraProp: {}, roles: [{ id: 'r' }] });
    defineRoute(app, gate, {
      method: 'GET',
      url: '/drift/list',
      summary: 'list',
      tags: ['test'],
      access: 'public',
      response: v.array(user),
      handler: async () => [validUser, { ...validUser, locked: 'no' }],
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await database.drop();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('passes an answer that matches its schema', async () => {
    const answer = await get('/drift/valid');
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(answer.json().data, validUser);
  });

  for (const [url, drift] of [
    ['/drift/missing', 'data.createdAt'],
    ['/drift/wrong-type', 'data.isAdmin'],
    ['/drift/extra', 'data.passwordHash: not in the response schema'],
    ['/drift/nested-extra', 'data.roles: not in the response schema'],
    ['/drift/list', 'data.1.locked'],
  ]) {
    it(`fails a drifted answer with 500 naming it: ${drift}`, async () => {
      const answer = await get(url!);
      assert.equal(answer.statusCode, 500);
      const { message, data } = answer.json<{ message: string; data: { route: string; drifts: string[] } }>();
      assert.equal(message, 'The answer does not match its response schema');
      assert.equal(data.route, `GET ${url}`);
      assert.ok(
        data.drifts.some((entry) => entry.startsWith(drift!)),
        `${drift} in ${JSON.stringify(data.drifts)}`,
      );
    });
  }

  it('is off unless asked for, and production still cuts what the schema does not declare', async () => {
    const plain = await buildApp({ ...database.options, adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    defineRoute(plain, createGate(plain.ctx), {
      method: 'GET',
      url: '/drift/extra',
      summary: 'extra',
      tags: ['test'],
      access: 'public',
      response: v.array(user),
      handler: async () => [{ ...validUser, passwordHash: 'secret', extraProp: { theme: 'dark' } }],
    });
    const answer = await plain.inject({ method: 'GET', url: '/drift/extra' });
    await plain.close();
    assert.equal(answer.statusCode, 200);
    // A browser reads the envelope only from a JSON answer: the cut keeps the content type.
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.doesNotMatch(answer.body, /passwordHash|secret/);
    // What the schema declares is written as it is, a free-form record included.
    assert.deepEqual(answer.json().data, [{ ...validUser, extraProp: { theme: 'dark' } }]);
  });

  it('every schema of the wire contract compiles its answer cut (one the cut cannot write fails here, not in production)', async () => {
    const schemas: [string, v.GenericSchema][] = [];
    for (const folder of ['schemas', 'contract']) {
      const dir = join(import.meta.dirname, '../../src/core', folder);
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
        for (const [name, value] of Object.entries(await import(join(dir, file)))) {
          const schema = folder === 'contract' ? (value as { response?: v.GenericSchema }).response : value;
          if (schema && typeof schema === 'object' && 'kind' in schema && schema.kind === 'schema')
            schemas.push([`${folder}/${file} ${name}`, schema as v.GenericSchema]);
        }
      }
    }
    assert.ok(schemas.length > 100, `${schemas.length} schemas`);
    for (const [where, schema] of schemas) assert.doesNotThrow(() => cutTo(schema), where);
  });
});
