/** An API path from literal parts and parameters, each parameter encoded as one path segment. */
export function apiPath(strings: TemplateStringsArray, ...params: (string | number)[]): string {
  return strings.reduce((path, part, i) => path + part + (i < params.length ? encodeURIComponent(String(params[i])) : ''), '');
}
