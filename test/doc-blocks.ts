// The fenced code blocks of the project's documentation, for the tests that run them as written
// (docs are code: a snippet the docs show is one a test runs).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The text of the first ````language` block of `doc` (a path from the repository root) that
 *  contains `marker` (`language` '' for a block without one); throws when there is none, so that a
 *  snippet cannot leave the docs unnoticed. */
export function docBlock(doc: string, language: string, marker: string): string {
  const block = docBlocks(doc).find((candidate) => candidate.language === language && candidate.body.includes(marker));
  if (!block) throw new Error(`${doc} has no \`\`\`${language} block with ${marker}`);
  return block.body;
}

/** One fenced block of a documentation page. */
export interface DocBlock {
  /** The page, from the repository root. */
  doc: string;
  /** The line of its opening fence (1-based). */
  line: number;
  /** The first word of the info string (`ts`, `sh`, …; empty when none). */
  language: string;
  /** The rest of the info string (a tag such as `ad-connection`, or `no-run: reason`). */
  info: string;
  body: string;
}

/** The pages whose snippets the tests run: README.md, every package's README and docs/*.md. */
export function documentationPages(): string[] {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const under = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${dir}/${name}`);
  const packages = readdirSync(join(root, 'packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(root, path)));
  return ['README.md', ...packages, ...under('docs')].sort();
}

/** Every fenced block of `doc` (indented blocks taken out of their indentation). */
export function docBlocks(doc: string): DocBlock[] {
  const text = readFileSync(fileURLToPath(new URL(`../${doc}`, import.meta.url)), 'utf8');
  return [...text.matchAll(/^( *)```([^\n`]*)\n([\s\S]*?)^\1```[ \t]*$/gm)].map((match) => {
    const [, indent = '', infoString = '', body = ''] = match;
    const [language = '', ...rest] = infoString.trim().split(/\s+/);
    return {
      doc,
      line: text.slice(0, match.index).split('\n').length,
      language,
      info: rest.join(' '),
      body: body
        .split('\n')
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n'),
    };
  });
}
