// Typings of scripts/manifest.mjs for the tests that import it.
export interface Sources {
  elementAttributes: Record<string, Record<string, { property: string }>>;
  elementEvents: Record<string, Record<string, { detail: string; description: string }>>;
  tokens: { name: string; description: string }[];
}
export const manifestFile: string;
export function loadSources(): Promise<Sources>;
export function withSources<Manifest>(manifest: Manifest, sources: Sources): Manifest;
export function problemsOf(manifest: unknown, sources: Sources): string[];
export function writeManifest(): Promise<boolean>;
