// Types of scripts/check-bundle.mjs for the TypeScript tests that use it.
export interface Budget {
  label: string;
  entry: string;
  firstLoad: number;
  keepHeadroom?: number;
  firstVisit?: string[];
  eachLazy?: number;
}
export const budgets: Budget[];
export function checkBundle(distDir?: string, srcDir?: string): string[];
export function reportBundle(distDir?: string): boolean;
