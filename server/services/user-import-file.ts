// Reading a user import file: UTF-8 text (a byte order mark is fine; any other encoding, such as
// a spreadsheet's legacy code page, is refused rather than guessed), RFC 4180 CSV with a header
// row naming the columns (src/core/schemas/user-import.ts), separated by commas, semicolons or tabs
// (the header row tells which), at most IMPORT_MAX_ROWS rows. Every
// refusal is a 400 on the field `file` with its rule, before any row is looked at.
import { parse } from 'csv-parse/sync';
import { Status } from '../../src/core/enums';
import { exportOnlyColumns, importColumns, IMPORT_MAX_ROWS, requiredImportColumns, statusInFile, type ImportColumn } from '../../src/core/schemas/user-import';
import { fieldError } from '../http/errors';
import { fromCsvCell } from '../http/csv';

/** One data row: its number in the file (header = 1) and the values of the columns present. */
export interface FileRow {
  row: number;
  values: Partial<Record<ImportColumn, string>>;
}

export interface ImportFile {
  /** The import columns the file has (the others keep their stored values). */
  columns: ImportColumn[];
  /** Header cells that are no import column (ignored). */
  ignored: string[];
  rows: FileRow[];
}

const fileProblem = (rule: string) => fieldError([{ field: 'file', rule }]);
const byName = new Map<string, ImportColumn>(importColumns.map((column) => [column.toLowerCase(), column]));
const exportOnly = new Set<string>(exportOnlyColumns.map((column) => column.toLowerCase()));

function decode(bytes: Uint8Array): string {
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 throws (no replacement characters); the BOM is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileProblem('rule.csvEncoding');
  }
  // A NUL is no text character (and PostgreSQL cannot store it): a binary file.
  if (text.includes('\u0000')) throw fileProblem('rule.csvEncoding');
  return text;
}

/** The file's delimiter, from its header row: a comma, or the semicolon spreadsheets write in
 *  locales whose decimal separator is a comma (Excel in most of Europe), or a tab. */
export function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/)).replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length - 1] as const);
  const [best] = counts.reduce((most, entry) => (entry[1] > most[1] ? entry : most));
  return best;
}

function records(text: string): string[][] {
  try {
    // One record more than allowed is read, to tell a file that is too long.
    const rows: string[][] = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      to: IMPORT_MAX_ROWS + 2,
    });
    return rows;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw fileProblem(line ? `rule.csvSyntax?line=${line}` : 'rule.csvSyntax?line=1');
  }
}

export function readImportFile(bytes: Uint8Array): ImportFile {
  const [header, ...data] = records(decode(bytes));
  if (!header) throw fileProblem('rule.csvEmpty');
  if (data.length > IMPORT_MAX_ROWS) throw fileProblem(`rule.csvRows?max=${IMPORT_MAX_ROWS}`);
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
  if (missing.length) throw fileProblem(`rule.csvColumns?columns=${missing.join(',')}`);
  return {
    columns: positions.map(([column]) => column),
    ignored,
    rows: data.map((cells, index) => ({
      row: index + 2,
      values: Object.fromEntries(positions.map(([column, at]) => [column, fromCsvCell((cells[at] ?? '').trim())])),
    })),
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
