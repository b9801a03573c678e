/** Writes `.br` and `.gz` copies of every .js file under `dir`; answers how many files. */
export function precompress(dir: string): number;
