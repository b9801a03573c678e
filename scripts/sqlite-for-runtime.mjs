// Loaded with `--import` (through NODE_OPTIONS, so server processes the tests spawn load it too)
// when the tests run on a Node.js other than the one that installed node_modules: the SQLite driver
// for Node.js 22 and later (`better-sqlite3-node22`, server/db/sqlite-driver.ts), which npm does not
// install on Node.js 20, resolves to the copy scripts/node-runtime.mjs installed for that Node.js
// (its lib/index.js in IAM_BETTER_SQLITE3). So does `better-sqlite3` itself, which builds from before
// that split import (the bench's older baselines, bench/baseline.mjs): the one in node_modules was
// built for the Node.js that installed it. A Node.js 20 process that inherits NODE_OPTIONS (npm on
// the PATH, which a test starts) has no `registerHooks` and needs none: its driver is the one npm
// installed for it (iam-console-sqlite-node20), so this does nothing there.
import module from 'node:module';
import { pathToFileURL } from 'node:url';

const copy = process.env.IAM_BETTER_SQLITE3;
if (copy && module.registerHooks) {
  const url = pathToFileURL(copy).href;
  module.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === 'better-sqlite3-node22' || specifier === 'better-sqlite3'
        ? { url, format: 'commonjs', shortCircuit: true }
        : nextResolve(specifier, context),
  });
}
