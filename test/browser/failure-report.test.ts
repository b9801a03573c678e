// The report of a failed assertion on a DOM node reaches web-test-runner (failure-report.ts).
import { expect } from '@open-wc/testing';
import { makeReportable } from './failure-report.js';

/** What chai throws for `expect(value).to.equal(null)`. */
function failureOn(value: unknown): { actual?: unknown; expected?: unknown } {
  try {
    expect(value).to.equal(null);
  } catch (error) {
    return error;
  }
  throw new Error('the assertion passed');
}

describe('a failed assertion on a DOM node', () => {
  it('cannot be cloned as chai throws it, and can once made reportable, with the markup as its value', () => {
    const button = document.createElement('button');
    button.textContent = 'Send code';
    const error = failureOn(button);
    expect(() => structuredClone({ actual: error.actual }), 'the premise: a node cannot be cloned').to.throw(DOMException);
    makeReportable(error);
    expect(structuredClone({ actual: error.actual, expected: error.expected })).to.deep.equal({ actual: '<button>Send code</button>', expected: null });
  });
});
