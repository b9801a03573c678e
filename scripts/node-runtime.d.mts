// Types of scripts/node-runtime.mjs for the TypeScript tests that use it.
export const sqliteForNewerNode: string;
export function nodeRuntime(major: number): { node: string; version: string; env: { IAM_BETTER_SQLITE3: string; NODE_OPTIONS: string } };
