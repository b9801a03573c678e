// Types of scripts/bundle-graph.mjs for the TypeScript tests that use it.
export interface BundleModule {
  file: string;
  name: string;
  code: string;
  size: number;
  gzip: number;
}
export interface LazyLoad {
  name: string;
  via: string[];
  bytes: number;
}
export interface BundleGraph {
  modules(): BundleModule[];
  missing(): string[];
  has(name: string): boolean;
  firstLoad(entry: string): { bytes: number; files: number };
  firstVisit(entry: string, firstVisit: string[]): { bytes: number; files: number; names: string[] };
  lazyLoads(entry: string): LazyLoad[];
  sizeOf(names: string[]): number;
}
export function chunkName(name: string): string;
export function bundleGraph(distDir: string): BundleGraph;
