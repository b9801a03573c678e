// A comment that names a file of the repository (`server/auth/throttle.ts`, `test/server/…`) names
// one that exists: renames and removals update the comments that point readers there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cited = /(?<![\w./-])(?:src|server|test|scripts|docs|bench)\/[\w.@/-]+\.(?:tsx?|mjs|js|md|json)\b/g;
const comment = /^\s*(?:\/\/|\/\*|\*)/;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(tsx?|mjs|js)$/.test(name) ? [path] : [];
  });
}

test('every repository file a comment names exists', () => {
  const missing = ['src', 'server', 'test', 'scripts', 'bench'].flatMap(sources).flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (comment.test(line) ? [...line.matchAll(cited)].map((match) => ({ file, line: index + 1, cites: match[0] })) : []))
      .filter(({ cites }) => !existsSync(join(root, cites)))
      .map(({ file, line, cites }) => `${file}:${line} cites ${cites}`),
  );
  assert.deepEqual(missing, []);
});
