// Typings of scripts/element-reference.mjs for the TypeScript tests.
export function elementReference(manifest: unknown): string;
export const referencePath: string;
export const manifestPath: string;
