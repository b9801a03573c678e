// A node:test reporter that writes one line of JSON per test file run: `{"file":…,"ms":…,"passed":…}`,
// the file's whole wall time (imports, top-level servers and browsers, every test, the after hooks)
// and whether all of it passed. scripts/test.mjs adds it to each run, prints the slowest files per
// suite and names the failed ones.
// A file run in its own process ends with a `test:complete` event named by the file's path (absolute
// on Node.js 20, relative to the working directory on Node.js 24); a file run with others in one
// process (scripts/test-files-together.mjs) is a top-level suite named by its path, whose events
// all carry that runner's path as their `file`.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const together = fileURLToPath(new URL('./test-files-together.mjs', import.meta.url));

export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { file, name, nesting, details } = event.data;
    if (!file || details?.duration_ms === undefined) continue;
    const isFile = file === together ? nesting === 0 : resolve(name) === file;
    if (isFile) yield `${JSON.stringify({ file: resolve(name), ms: Math.round(details.duration_ms), passed: details.passed })}\n`;
  }
}
