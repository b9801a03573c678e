// A failed test's report must reach web-test-runner. The page sends every result through
// structuredClone (@web/dev-server-core's web socket, modernweb-dev/web#2967), which throws on a DOM
// node: a failed `expect(element).to.equal(null)` lost the report of its whole file, which then
// counted as unfinished after testsFinishTimeout (5 minutes) with none of its tests named. After
// each failed test, its values that cannot be cloned are replaced by their text (a node by its
// markup). Imported by the helpers every test file uses.

/** `value` as is when the report can carry it, else as text. */
function reportable(value: unknown): unknown {
  try {
    structuredClone(value);
    return value;
  } catch {
    return value instanceof Element ? value.outerHTML : String(value);
  }
}

/** Makes a failed assertion's `actual` and `expected` fit the report. */
export function makeReportable(error: { actual?: unknown; expected?: unknown }): void {
  error.actual = reportable(error.actual);
  error.expected = reportable(error.expected);
}

afterEach(function () {
  const error = this.currentTest?.err;
  if (error) makeReportable(error);
});
