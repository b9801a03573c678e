// Links that come from data (app entrypoints, configured URLs) are shown only when they are
// http(s) URLs or same-site paths: never javascript:, data: or protocol-relative targets.
export function safeLink(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (text.startsWith('/') && !text.startsWith('//') && !text.startsWith('/\\')) return text;
  return /^https?:\/\/[^\s/?#]+/i.test(text) ? text : undefined;
}
