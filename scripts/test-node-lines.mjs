// Which Node.js line runs which part of `npm test` (scripts/test.mjs). README.md says it in one
// sentence, which test/e2e/doc-snippets.test.ts holds to these constants.

/** The other Node.js majors the `runtime` files run on (this one runs the unit and host suites and `sqliteOnThisNode`). */
export const otherNodeMajors = [24, 22, 26];

/**
 * The ones of `otherNodeMajors` that run only `signInFiles` (a sign-in on SQLite and the engines
 * check), in seconds: 22, whose PostgreSQL pass already runs every server file, and 26, the newest
 * LTS line, which `engines` accept and no other suite runs on; the others run the unit tests.
 */
export const signInOnlyNodeMajors = [22, 26];

/**
 * The Node.js the server suite's SQLite pass runs on: the newest LTS line, with its own SQLite driver
 * (better-sqlite3 13; 12 aborted on Node.js 24.19 when a statement was collected), crypto (Argon2,
 * WebAuthn, JWT, the OIDC provider), fetch and streams, child processes and garbage collector (the
 * load test's heap check failed there once). The e2e suite (its test files and the compiled server
 * they start) runs on it too; the host suite's compiled server runs on this Node.js: so the product
 * is checked on all three lines, each server file once per engine.
 */
export const sqliteNodeMajor = 24;

/**
 * The Node.js the server suite's PostgreSQL pass runs on: the LTS line between this one and 24. Not
 * this one: Node.js 20 cannot run test files together in one process with their hooks kept per file
 * (scripts/test-files-together.mjs), and 22 runs every server file there (passkeys' WebAuthn crypto,
 * Argon2, the OIDC provider).
 */
export const postgresNodeMajor = 22;
