// The published typings, as a host project sees them: test/types/consumer.tsx imports
// 'iam-console/elements' and 'iam-console/core', mapped by test/types/tsconfig.json to the typings
// the build wrote to packages/iam-console/dist/types, and uses tag names, typed event details and
// React JSX attributes (test/hosts compiles hosts against the packed package itself). It must compile, and its @ts-expect-error lines must stay errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('a host project typechecks against the published typings', () => {
  assert.ok(existsSync(`${root}packages/iam-console/dist/types/elements/index.d.ts`), 'the build wrote the typings');
  const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'test/types/tsconfig.json'], { cwd: root, encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
