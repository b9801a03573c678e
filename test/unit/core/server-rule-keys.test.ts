// Every `rule.*` / `upload.*` key the server or the shared schemas can answer with has a text in
// both locales, so a refused field always shows a readable message under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from '../../../src/core/i18n/locales/en/common.json' with { type: 'json' };
import zh from '../../../src/core/i18n/locales/zh/common.json' with { type: 'json' };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

function keysUsed(): Set<string> {
  const keys = new Set<string>();
  for (const source of [...sources('server'), ...sources('src/core/schemas'), ...sources('src/core/validation')]) {
    for (const match of source.matchAll(/'((?:rule|upload)\.[A-Za-z]+)(?:\?[^']*)?'/g)) keys.add(match[1]!);
  }
  return keys;
}

function has(resources: Record<string, unknown>, key: string): boolean {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources);
  return typeof value === 'string' && value.length > 0;
}

/** A text, or a plural text (its `_other` form: English also has `_one`). */
const hasText = (resources: Record<string, unknown>, key: string) => has(resources, key) || has(resources, `${key}_other`);

test('every rule and upload key of the server has an English and a Chinese text', () => {
  const used = [...keysUsed()];
  assert.ok(used.length > 20, `expected the server to use many rule keys, found ${used.length}`);
  assert.deepEqual(
    used.filter((key) => !hasText(en, key)),
    [],
    'missing in en/common.json',
  );
  assert.deepEqual(
    used.filter((key) => !hasText(zh, key)),
    [],
    'missing in zh/common.json',
  );
});
