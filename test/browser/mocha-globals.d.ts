// The globals web-test-runner's mocha gives the browser tests (test/browser/**): the few they use.
declare global {
  type MochaBody = () => Promise<unknown> | void;
  function describe(title: string, body: () => void): void;
  function it(title: string, body: MochaBody): void;
  function before(body: MochaBody): void;
  function after(body: MochaBody): void;
  function beforeEach(body: MochaBody): void;
  /** A hook's `this`: the test that just ran, with its error when it failed (failure-report.ts). */
  interface MochaHookContext {
    currentTest?: { err?: Error & { actual?: unknown; expected?: unknown } };
  }
  function afterEach(body: (this: MochaHookContext) => Promise<unknown> | void): void;
}

export {};
