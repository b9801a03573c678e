// The feature map of docs/architecture.md (between its feature-map markers), read as rows, for the
// tests that keep it true (test/unit/architecture-map.test.ts, test/server/client-paths.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface FeatureRow {
  /** The URL cell as written (under /api). */
  url: string;
  route: string[];
  service: string[];
  tables: string[];
  schema: string[];
  client: string[];
  screen: string[];
  texts: string[];
  tests: string[];
}

/** The rows of the map; each cell's `code` spans, in order. */
export function featureMap(): FeatureRow[] {
  const text = readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8');
  const map = /<!-- feature-map:start -->\n([\s\S]*?)<!-- feature-map:end -->/.exec(text)?.[1];
  if (!map) throw new Error('docs/architecture.md has no feature map (feature-map markers)');
  const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  return map
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      if (cells.length !== 9) throw new Error(`a feature map row has ${cells.length} cells, not 9: ${line}`);
      const [url, route, service, tables, schema, client, screen, texts, tests] = cells.map((cell) => cell.trim());
      return {
        url: url!,
        route: spans(route!),
        service: spans(service!),
        tables: spans(tables!),
        schema: spans(schema!),
        client: spans(client!),
        screen: spans(screen!),
        texts: spans(texts!),
        tests: spans(tests!),
      };
    });
}
