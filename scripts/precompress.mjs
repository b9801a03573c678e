// Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every JavaScript file
// under a folder, once at build time, so the server sends compressed files without compressing
// on each request (server/http/bundle-files.ts).
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

function javascriptFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return javascriptFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

/** Compresses every .js file under `dir`; answers how many files it wrote copies of. */
export function precompress(dir) {
  const files = javascriptFiles(dir);
  for (const file of files) {
    const content = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
  return files.length;
}
