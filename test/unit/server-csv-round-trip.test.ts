// CSV cells that the user export writes and the import reads back: formula neutralisation is
// reversible (a description typed `'=…` keeps its apostrophe), and `;`- or tab-separated files
// (Excel in European locales) are read with their own delimiter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { csvLine, fromCsvCell } from '../../server/http/csv';
import { delimiterOf, readImportFile } from '../../server/services/user-import-file';

const roundTrip = (value: string) => fromCsvCell(parse(csvLine([value]), {})[0]![0]!);

test('every cell survives an export and an import exactly', () => {
  for (const value of ['=1+1', "'=1+1", "''=x", '+44 20 7946 0958', '-5', '@SUM(A1)', "'quoted'", "O'Neil", 'plain', '', 'a,b', 'say "hi"'])
    assert.equal(roundTrip(value), value, value);
  // Neutralised on the way out: a spreadsheet sees text.
  assert.equal(csvLine(['=cmd']), "'=cmd\r\n");
  assert.equal(csvLine(["'=cmd"]), "''=cmd\r\n");
});

test('the delimiter is the header row’s: comma, semicolon or tab', async () => {
  assert.equal(delimiterOf('username,realName\n'), ',');
  assert.equal(delimiterOf('username;realName;email\r\nalice;Alice;a@b.c\r\n'), ';');
  assert.equal(delimiterOf('username\trealName\n'), '\t');
  assert.equal(delimiterOf('"user;name",realName\n'), ',');
  const bytes = new TextEncoder().encode('\ufeffusername;realName;description\r\nalice;Alice;"a, b; c"\r\n');
  // Split inside the byte order mark and the header row: the stream is decoded across chunks.
  const file = await readImportFile(() => Readable.from([bytes.subarray(0, 2), bytes.subarray(2, 12), bytes.subarray(12)]));
  assert.deepEqual(file.columns, ['username', 'realName', 'description']);
  assert.equal(file.total, 1);
  const rows = [];
  for await (const row of file.rows()) rows.push(row);
  assert.deepEqual(rows, [{ row: 2, values: { username: 'alice', realName: 'Alice', description: 'a, b; c' } }]);
});
