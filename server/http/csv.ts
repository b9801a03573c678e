// CSV for spreadsheets (RFC 4180 quoting). A cell starting with = + - @ or a tab/carriage return
// would run as a formula when the file is opened (CSV injection, e.g. `=cmd|' /C calc'!A0`): it
// is prefixed with an apostrophe, which spreadsheets show as text. A cell that already starts with
// apostrophes before such a character (a description typed `'=…`) gets one more, so that reading
// it back (fromCsvCell) takes off only the one the export added: the round trip is exact.
const FORMULA_START = /^'*[=+\-@\t\r]/;

function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF-terminated. */
export const csvLine = (cells: readonly (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A cell read back from a file this server wrote (a user import of an export): the apostrophe
 *  csvCell put before a formula character is taken off again. */
export const fromCsvCell = (text: string) => (/^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text);
