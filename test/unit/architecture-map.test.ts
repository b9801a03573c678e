// docs/architecture.md's feature map (one row per resource: URL → route, service, tables, schema,
// client call, screen, texts, tests) and its layer diagram name files, folders and tables that exist,
// so that a newcomer following them lands on real code. That every resource of the API has a row is
// checked against the running server's OpenAPI document in test/server/client-paths.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docBlock } from '../doc-blocks';
import { featureMap } from '../feature-map';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rows = featureMap();
const tables = new Set([...readFileSync(join(root, 'server/db/tables.ts'), 'utf8').matchAll(/^ {2}(\w+): \w+Table;$/gm)].map((match) => match[1]));

test('the feature map has its columns and a row per resource', () => {
  assert.ok(rows.length >= 20, `${rows.length} rows`);
  for (const row of rows) assert.ok(row.url.length > 0 && row.route.length > 0 && row.tests.length > 0, JSON.stringify(row));
});

test('every file and folder the feature map names exists; every text file in English and Chinese', () => {
  const missing = rows.flatMap((row) => [
    ...[...row.route, ...row.service, ...row.schema, ...row.client, ...row.screen, ...row.tests].filter((path) => !existsSync(join(root, path))),
    ...row.texts.flatMap((file) => ['en', 'zh'].map((language) => `src/core/i18n/locales/${language}/${file}`)).filter((path) => !existsSync(join(root, path))),
  ]);
  assert.deepEqual(missing, []);
});

test('every table the feature map names is one of server/db/tables.ts', () => {
  assert.ok(tables.size > 20);
  assert.deepEqual(
    rows.flatMap((row) => row.tables).filter((table) => !tables.has(table)),
    [],
  );
});

test("the layer diagram's folders exist", () => {
  const diagram = docBlock('docs/architecture.md', '', 'host page ──attributes');
  const folders = diagram.match(/\b(?:src\/\w+|server\/)/g) ?? [];
  assert.ok(folders.length >= 4);
  assert.deepEqual(
    folders.filter((folder) => !existsSync(join(root, folder))),
    [],
  );
});
