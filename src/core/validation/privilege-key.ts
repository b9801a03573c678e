// The rule of privilege keys: an identifier in code and tokens, not a person's text, so one rule in
// every field-rules mode. Its own module so that only the privilege forms load it.
import * as v from 'valibot';
import { formatRuleMessage } from '../rule-message';

/** Privilege keys (both modes): a letter first, a letter or digit last, letters, digits, _, - and
 *  dots between, 2-64 characters, so that the usual dotted keys (`claims.submit`) fit. A key is an
 *  identifier in code and tokens, not a person's text: it has one rule everywhere. */
export const privilegeKey = v.pipe(
  v.string('rule.required'),
  v.nonEmpty('rule.required'),
  v.regex(/^[A-Za-z](?:[\w-]|\.(?!\.)){0,62}[A-Za-z0-9]$/, (issue) => privilegeKeyProblem(issue.input)),
);

/** The cause of a refused privilege key, as a rule message: its length, a space, a character it may
 *  not hold (named), two dots in a row, or its first or last character. The hint says the whole
 *  rule; the error says what to change. */
function privilegeKeyProblem(value: unknown): string {
  const key = String(value);
  if (key.length < 2 || key.length > 64) return formatRuleMessage('rule.privilegeKeyLength', { length: key.length });
  if (/\s/.test(key)) return 'rule.privilegeKeySpace';
  const stray = /[^\w.-]/.exec(key);
  if (stray) return formatRuleMessage('rule.privilegeKeyChar', { char: stray[0] });
  if (!/^[A-Za-z]/.test(key)) return 'rule.safeCodeStart';
  if (/[^A-Za-z0-9]$/.test(key)) return 'rule.safeCodeEnd';
  return 'rule.privilegeKeyDots';
}
