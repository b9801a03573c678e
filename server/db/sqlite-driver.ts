// The SQLite driver for the Node.js this process runs on. better-sqlite3 12 is built against one
// Node.js (its install compiles it or fetches a build) and, built for Node.js 24.19 or later, aborts
// the process when a statement is collected (Node's ObjectWrap change); better-sqlite3 13 uses
// Node-API and ships its builds in the package, but needs Node.js 22. packages/server declares each
// as an optional dependency that npm installs on its own Node.js only, by engines: 13 under the name
// `better-sqlite3-node22` (Node.js 22 and later), 12 through `iam-console-sqlite-node20`
// (packages/sqlite-node20, Node.js 20 only, so that npm neither installs nor builds it on a later
// one). The one for this Node.js is loaded here.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const major = Number(process.versions.node.split('.')[0]);
/** The package name of the driver for this Node.js. */
const sqliteDriverName = major >= 22 ? 'better-sqlite3-node22' : 'iam-console-sqlite-node20';

function load(): typeof BetterSqlite3 {
  try {
    return createRequire(import.meta.url)(sqliteDriverName) as typeof BetterSqlite3;
  } catch (error) {
    // node_modules installed by another Node.js (a clone installed on 20, started on 24): say what to do.
    const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `The SQLite driver for Node.js ${process.versions.node} (${sqliteDriverName}) cannot be loaded: run npm install with this Node.js (${cause})`,
      { cause: error },
    );
  }
}

/** better-sqlite3's Database constructor, as the driver for this Node.js gives it. */
export const SQLite = load();
