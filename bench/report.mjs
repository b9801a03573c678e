// The bench's output: one table on stdout, and bench/results.json with the machine, Node version
// and date beside every figure.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    platform: `${process.platform} ${process.arch}`,
    loadAverage1m: Number(loadavg()[0].toFixed(2)),
  };
}

const verdict = (pass) => (pass === undefined ? '' : pass ? 'pass' : 'FAIL');

/** rows: { figure, value (text), budget (text, optional), pass (boolean, optional) }; `titles`
 *  renames columns. The budget and result columns are left out when no row has a budget. */
export function formatTable(rows, titles = {}) {
  const header = { figure: 'Figure', value: 'Value', budget: 'Budget', result: 'Result', ...titles };
  const lines = [header, ...rows.map((row) => ({ figure: row.figure, value: row.value, budget: row.budget ?? '', result: verdict(row.pass) }))];
  const judged = rows.some((row) => row.budget !== undefined || row.pass !== undefined);
  const width = (key) => Math.max(...lines.map((line) => line[key].length));
  const format = (line) =>
    `| ${line.figure.padEnd(width('figure'))} | ${line.value.padStart(width('value'))} |${judged ? ` ${line.budget.padEnd(width('budget'))} | ${line.result.padEnd(width('result'))} |` : ''}`;
  const rule = `|${'-'.repeat(width('figure') + 2)}|${'-'.repeat(width('value') + 1)}:|${judged ? `${'-'.repeat(width('budget') + 2)}|${'-'.repeat(width('result') + 2)}|` : ''}`;
  return [format(lines[0]), rule, ...lines.slice(1).map(format)].join('\n');
}

export function writeResults(path, results) {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}
