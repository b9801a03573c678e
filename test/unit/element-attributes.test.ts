// One attribute table per element (src/elements/attributes.ts), one events table
// (src/elements/events.ts) and one token list (src/react/theme/tokens.ts) drive the r2wc props, the
// typings, custom-elements.json and docs/elements.md: these tests fail when the committed manifest
// or docs drift from them, or when an attribute, event or token is declared somewhere else again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadSources, manifestFile, problemsOf, withSources } from '../../scripts/manifest.mjs';
import { booleanAttributes, reactProps } from '../../src/elements/attribute-spec';
import { elementAttributes } from '../../src/elements/attributes';
import { elementEvents } from '../../src/elements/events';
import { tokenList } from '../../src/react/theme/tokens';

const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const sources = await loadSources();

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test('custom-elements.json carries exactly the attribute table, the events table and every theme token (run npm run build)', () => {
  assert.deepEqual(withSources(manifest, sources), manifest);
  assert.deepEqual(problemsOf(manifest, sources), []);
  const declarations = manifest.modules.flatMap((module: { declarations?: { tagName?: string }[] }) => module.declarations ?? []);
  for (const tag of Object.keys(elementAttributes)) {
    const element = declarations.find((declaration: { tagName?: string }) => declaration.tagName === tag) as {
      attributes: { name: string; fieldName: string }[];
      events?: { name: string; type: { text: string } }[];
      cssProperties?: { name: string }[];
    };
    assert.deepEqual(
      (element.events ?? []).map((e) => [e.name, e.type.text]),
      Object.entries(elementEvents[tag as keyof typeof elementEvents]).map(([name, spec]) => [name, `CustomEvent<${spec.detail}>`]),
      tag,
    );
    assert.deepEqual(
      element.attributes.map((a) => [a.name, a.fieldName]),
      Object.entries(elementAttributes[tag as keyof typeof elementAttributes]).map(([name, spec]) => [name, spec.property]),
      tag,
    );
    if (tag !== 'iam-provider')
      assert.deepEqual(
        element.cssProperties?.map((p) => p.name),
        tokenList().map((token) => token.name),
        tag,
      );
  }
});

test('the theme has 24 tokens and the UI uses no --iam-* property outside them', () => {
  const names = new Set(tokenList().map((token) => token.name));
  assert.equal(names.size, 24);
  const used = files('src')
    .filter((path) => /\.tsx?$/.test(path))
    .flatMap((path) => readFileSync(path, 'utf8').match(/--iam-[a-z0-9-]+/g) ?? []);
  assert.deepEqual(
    [...new Set(used)].filter((name) => !names.has(name)),
    [],
  );
});

test('no element declares an attribute, event or token outside the tables (no @attr, @fires, @event or @cssprop JSDoc)', () => {
  for (const path of files('src/elements')) {
    assert.doesNotMatch(readFileSync(path, 'utf8'), /@attr\b|@fires\b|@event\b|@cssprop\b/, path);
  }
});

test('r2wc props and boolean attributes come from the table', () => {
  assert.deepEqual(reactProps(elementAttributes['iam-login']), { apiBase: 'string', locale: 'string', authMode: 'string', tokenName: 'string' });
  assert.deepEqual(Object.keys(reactProps(elementAttributes['iam-console'])).sort(), [
    'apiBase',
    'authMode',
    'base',
    'locale',
    'route',
    'routing',
    'theme',
    'tokenName',
    'uiEmbed',
  ]);
  assert.deepEqual(booleanAttributes(elementAttributes['iam-password-dialog']), ['open']);
  assert.deepEqual(booleanAttributes(elementAttributes['iam-console']), ['ui-embed']);
});
