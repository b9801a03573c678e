// Reading a user import file: UTF-8 text (a byte order mark is fine; any other encoding, such as
// a spreadsheet's legacy code page, is refused rather than guessed), RFC 4180 CSV with a header
// row naming the columns (src/core/schemas/user-import.ts), separated by commas, semicolons or tabs
// (the header row tells which), any number of rows (an export of any size imports back). The file
// is read as a stream, twice: once before the upload is answered, to refuse a malformed file whole
// (a 400 on the field `file` with its rule, before any row is looked at) and count its rows; then
// by the job, a chunk at a time. Memory stays bounded whatever the file's size.
import { Readable, pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { Status } from '../../src/core/enums';
import { exportOnlyColumns, importColumns, requiredImportColumns, statusInFile, type ImportColumn } from '../../src/core/schemas/user-import';
import { ApiError, fieldError } from '../http/errors';
import { fromCsvCell } from '../http/csv';

/** One data row: its number in the file (header = 1) and the values of the columns present. */
export interface FileRow {
  row: number;
  values: Partial<Record<ImportColumn, string>>;
}

/** The file's bytes, from the start, each time it is called. */
export type FileSource = () => AsyncIterable<Uint8Array>;

export interface ImportFile {
  /** The import columns the file has (the others keep their stored values). */
  columns: ImportColumn[];
  /** Header cells that are no import column (ignored). */
  ignored: string[];
  /** How many data rows it has. */
  total: number;
  /** Its data rows, read again from the source. */
  rows: () => AsyncIterable<FileRow>;
}

const fileProblem = (rule: string) => fieldError([{ field: 'file', rule }]);
const byName = new Map<string, ImportColumn>(importColumns.map((column) => [column.toLowerCase(), column]));
const exportOnly = new Set<string>(exportOnlyColumns.map((column) => column.toLowerCase()));

/** The bytes as text, chunk by chunk. */
async function* decode(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  // fatal: a byte sequence that is not UTF-8 throws (no replacement characters); the BOM is dropped.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const text = (chunk?: Uint8Array) => {
    let decoded: string;
    try {
      decoded = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw fileProblem('rule.csvEncoding');
    }
    // A NUL is no text character (and PostgreSQL cannot store it): a binary file.
    if (decoded.includes('\u0000')) throw fileProblem('rule.csvEncoding');
    return decoded;
  };
  for await (const chunk of bytes) yield text(chunk);
  yield text();
}

/** The file's delimiter, from its header row: a comma, or the semicolon spreadsheets write in
 *  locales whose decimal separator is a comma (Excel in most of Europe), or a tab. */
export function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/)).replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length - 1] as const);
  const [best] = counts.reduce((most, entry) => (entry[1] > most[1] ? entry : most));
  return best;
}

/** The file's records, the header row first. */
async function* records(source: FileSource): AsyncGenerator<string[]> {
  const text = decode(source());
  // The text up to the end of the header row tells the delimiter.
  let head = '';
  let done = false;
  while (!done && !/\r?\n/.test(head)) {
    const next = await text.next();
    if (next.done) done = true;
    else head += next.value;
  }
  async function* all() {
    yield head;
    yield* text;
  }
  const parser = parse({ delimiter: delimiterOf(head), relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true });
  // A refusal while decoding ends the parser with that error.
  pipeline(Readable.from(all()), parser, () => undefined);
  try {
    for await (const record of parser) yield record as string[];
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const line = (error as { lines?: number }).lines;
    throw fileProblem(line ? `rule.csvSyntax?line=${line}` : 'rule.csvSyntax?line=1');
  }
}

/** Reads the file through once: its columns and row count, or its refusal. */
export async function readImportFile(source: FileSource): Promise<ImportFile> {
  const reading = records(source);
  const first = await reading.next();
  if (first.done) throw fileProblem('rule.csvEmpty');
  const header = first.value;
  const positions: [ImportColumn, number][] = [];
  const ignored: string[] = [];
  header.forEach((cell, index) => {
    const name = cell.trim();
    const column = byName.get(name.toLowerCase());
    if (!column) {
      if (name && !exportOnly.has(name.toLowerCase())) ignored.push(name.slice(0, 100));
      return;
    }
    if (positions.some(([known]) => known === column)) throw fileProblem(`rule.csvColumns?columns=${column}`);
    positions.push([column, index]);
  });
  const missing = requiredImportColumns.filter((column) => !positions.some(([known]) => known === column));
  if (missing.length) {
    await reading.return(undefined);
    throw fileProblem(`rule.csvColumns?columns=${missing.join(',')}`);
  }
  let total = 0;
  for await (const _record of reading) total += 1;
  return {
    columns: positions.map(([column]) => column),
    ignored,
    total,
    rows: async function* () {
      let row = 1;
      let header = true;
      for await (const cells of records(source)) {
        if (header) {
          header = false;
          continue;
        }
        row += 1;
        yield { row, values: Object.fromEntries(positions.map(([column, at]) => [column, fromCsvCell((cells[at] ?? '').trim())])) };
      }
    },
  };
}

const STATUS_WORDS: Record<string, number> = {
  [statusInFile[Status.Enable]]: Status.Enable,
  [statusInFile[Status.Disabled]]: Status.Disabled,
  [Status.Enable]: Status.Enable,
  [Status.Disabled]: Status.Disabled,
};

/** A row's values as the row schema's input: an empty email, phone or description clears it; an
 *  empty tenant or status is left out (kept, or the default for a new person). */
export function rowInput(values: FileRow['values']): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values) as [ImportColumn, string][]) {
    if (column === 'tenantId' || column === 'availabilityStatus') {
      if (!value) continue;
      input[column] = column === 'availabilityStatus' ? (STATUS_WORDS[value.toLowerCase()] ?? value) : value;
    } else input[column] = value;
  }
  return input;
}
