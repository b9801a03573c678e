// The fenced code blocks of the project's documentation, for the tests that run them as written
// (docs are code: a snippet the docs show is one a test runs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The text of the first ````language` block of `doc` (a path from the repository root) that
 *  contains `marker`; throws when there is none, so that a snippet cannot leave the docs unnoticed. */
export function docBlock(doc: string, language: string, marker: string): string {
  const text = readFileSync(fileURLToPath(new URL(`../${doc}`, import.meta.url)), 'utf8');
  // An indented block (inside a list item) is taken out of its indentation.
  for (const match of text.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```/gm)) {
    const [, indent = '', lang, body = ''] = match;
    if (lang !== language || !body.includes(marker)) continue;
    return body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
  }
  throw new Error(`${doc} has no \`\`\`${language} block with ${marker}`);
}
