// The Node.js the compared servers run on (`npm run bench -- --node=N`, bench/compare.mjs). The
// default is the line docs/deployment.md says to run in production; another
// major is fetched as the test suites fetch theirs (scripts/node-runtime.mjs), with the SQLite
// driver for it. The load generators stay on the Node.js that runs the bench.
import { nodeRuntime } from '../scripts/node-runtime.mjs';

/** The Node.js line production should run (docs/deployment.md): the newest LTS line the test
 *  suites cover (26, LTS since October 2026, is not tested yet; 20 ended on 2026-04-30). */
export const PRODUCTION_NODE_MAJOR = 24;

/** { node, version, env } to spawn a server on Node.js `major` (this process's own when it is that major). */
export function serverNode(major) {
  if (Number(process.versions.node.split('.')[0]) === major) return { node: process.execPath, version: process.version, env: {} };
  return nodeRuntime(major);
}
