// Types of scripts/test-node-lines.mjs for the TypeScript tests that read it.
export const otherNodeMajors: number[];
export const signInOnlyNodeMajors: number[];
export const sqliteNodeMajor: number;
export const postgresNodeMajor: number;
