// Runs the node:test files named on its command line in this one process, one after another:
// `node --import tsx [--test-reporter…] scripts/test-files-together.mjs file…` (scripts/test.mjs).
// Each file then pays its imports only for what the files before it did not load (the server's module
// graph through tsx costs every file of its own process 2.5-4 s of CPU before its first test).
//
// Each file is imported inside a suite named by its path, so what it declares at its top level stays
// its own: its `before`/`after` hooks run around its own tests (the runner's isolation=none would hang
// every file's hooks on the one root test: every `before` at the start, every `after` at the end),
// a failure is reported under the file's name, and its time is the suite's
// (scripts/file-times-reporter.mjs). The suites run in the order given, one at a time.
import { describe } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) describe(file, () => import(pathToFileURL(resolve(file)).href));
