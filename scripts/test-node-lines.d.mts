// Types of scripts/test-node-lines.mjs for the TypeScript tests that read it.
export const otherNodeMajors: number[];
export const signInOnlyNodeMajor: number;
export const sqliteNodeMajor: number;
export const postgresNodeMajor: number;
