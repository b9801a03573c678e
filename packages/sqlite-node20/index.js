// better-sqlite3 12, the SQLite driver for Node.js 20 (iam-console-server's server/db/sqlite-driver.ts).
// This package exists for its `engines`: iam-console-server declares it as an optional dependency, so
// npm installs it, and better-sqlite3 12 with it (built for this Node.js), on Node.js 20 only. On 22
// and later the server loads better-sqlite3 13 (Node-API, built in its package) instead.
// CommonJS like better-sqlite3 itself, so that require() answers its Database constructor as it does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
module.exports = require('better-sqlite3');
