// The two pure steps of a translation: find the text of a dotted key in a resource tree, and fill
// in its `{{name}}` placeholders. No escaping: UIs render text as text (React escapes it).

/** A namespace file: nested objects whose leaves are texts. */
export type Resources = { readonly [key: string]: string | Resources };

/** The text at `path` (`a.b.c`), or undefined when there is none (or the path names an object). */
export function lookup(resources: Resources | undefined, path: string): string | undefined {
  let node: string | Resources | undefined = resources;
  for (const part of path.split('.')) {
    if (!node || typeof node === 'string' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `text` with each `{{name}}` replaced by `values[name]` (undefined and null give an empty string).
 *  A placeholder without a value is kept, so a forgotten parameter shows instead of vanishing. */
export function interpolate(text: string, values: Readonly<Record<string, unknown>> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) => {
    if (!Object.hasOwn(values, name)) return placeholder;
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });
}
