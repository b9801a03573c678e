// The globals web-test-runner's mocha gives the browser tests (test/browser/**): the few they use.
declare global {
  type MochaBody = () => Promise<unknown> | void;
  function describe(title: string, body: () => void): void;
  function it(title: string, body: MochaBody): void;
  function before(body: MochaBody): void;
  function after(body: MochaBody): void;
  function beforeEach(body: MochaBody): void;
  function afterEach(body: MochaBody): void;
}

export {};
