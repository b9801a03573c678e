// The message of a validation issue is an i18n key (`rule.*`). Rules with parameters (range,
// max length) append them as a query string: `rule.range?min=1&max=10`. This keeps the message a
// plain string the server can put in `data.fields[].rule`, and lets any UI translate it with the
// parameters (`t(key, params)`).

export interface RuleMessage {
  key: string;
  params: Record<string, string>;
}

/** `key` with `params` appended as a query string (no `?` when there are none). */
export function formatRuleMessage(key: string, params: Record<string, string | number> = {}): string {
  const entries = Object.entries(params);
  if (!entries.length) return key;
  return `${key}?${new URLSearchParams(entries.map(([name, value]) => [name, String(value)]))}`;
}

/** Splits a rule message back into its i18n key and parameters. */
export function parseRuleMessage(message: string): RuleMessage {
  const at = message.indexOf('?');
  if (at < 0) return { key: message, params: {} };
  return { key: message.slice(0, at), params: Object.fromEntries(new URLSearchParams(message.slice(at + 1))) };
}
