// Loaded with `--import` (through NODE_OPTIONS, so server processes the tests spawn load it too)
// when the tests run on a Node.js other than the one that installed node_modules: the SQLite driver
// for Node.js 22 and later (`better-sqlite3-node22`, server/db/sqlite-driver.ts), which npm does not
// install on Node.js 20, resolves to the copy scripts/node-runtime.mjs installed for that Node.js
// (its lib/index.js in IAM_BETTER_SQLITE3). So does `better-sqlite3` itself, which builds from before
// that split import (the bench's older baselines, bench/baseline.mjs): the one in node_modules was
// built for the Node.js that installed it.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const copy = process.env.IAM_BETTER_SQLITE3;
if (copy) {
  const url = pathToFileURL(copy).href;
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === 'better-sqlite3-node22' || specifier === 'better-sqlite3'
        ? { url, format: 'commonjs', shortCircuit: true }
        : nextResolve(specifier, context),
  });
}
