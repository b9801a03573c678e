// Distinguished names compared as a directory compares them (RFC 4514): attribute types without
// case, no spaces around the separators, escapes (`\,`, `\2C`, UTF-8 as `\c3\a9`) read as the
// characters they stand for, and values without case (the naming attributes of people and groups,
// cn, ou, dc, uid, match without case in Active Directory and OpenLDAP). So
// `CN=Sales, OU=Groups, DC=example, DC=com`, as Active Directory's tools show it, is the group the
// directory names `cn=sales,ou=groups,dc=example,dc=com`. ldapts builds DNs but does not parse them.

/** Splits `text` at the separators outside escapes and quotes. */
function splitUnescaped(text: string, separators: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '\\') at++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && separators.includes(char)) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A value without its unescaped surrounding spaces (an escaped one, `\ `, stays). */
function trimmedValue(raw: string): string {
  let value = raw.trimStart();
  const end = value.trimEnd();
  const escapes = /\\*$/.exec(end)![0].length;
  value = escapes % 2 === 1 ? `${end} ` : end;
  return value.startsWith('"') && value.endsWith('"') && value.length > 1 ? value.slice(1, -1) : value;
}

/** The characters a value's escapes stand for (hex pairs are UTF-8 bytes). */
function unescaped(value: string): string {
  const bytes: number[] = [];
  for (let at = 0; at < value.length; at++) {
    const pair = value.slice(at + 1, at + 3);
    if (value[at] === '\\' && /^[0-9a-f]{2}$/i.test(pair)) {
      bytes.push(parseInt(pair, 16));
      at += 2;
    } else {
      if (value[at] === '\\') at++;
      const point = value.codePointAt(at);
      if (point === undefined) break;
      const char = String.fromCodePoint(point);
      at += char.length - 1;
      bytes.push(...Buffer.from(char));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** One value written back with RFC 4514's escapes, so that distinct DNs stay distinct. */
const escaped = (value: string) =>
  value
    .replace(/[\\,+"<>;=]/g, '\\$&')
    .replace(/^[ #]/, '\\$&')
    .replace(/ $/, '\\ ');

/** The form of `dn` under which the directory's spellings of one name are one (a map key). */
export function dnKey(dn: string): string {
  return splitUnescaped(dn.trim(), ',;')
    .map((rdn) =>
      splitUnescaped(rdn, '+')
        .map((pair) => {
          const equals = splitUnescaped(pair, '=');
          const type = equals[0]!.trim().toLowerCase();
          const value = trimmedValue(pair.slice(equals[0]!.length + 1));
          // A value given as #hex (BER) is compared as written.
          return `${type}=${value.startsWith('#') ? value.toLowerCase() : escaped(unescaped(value).toLowerCase())}`;
        })
        .sort()
        .join('+'),
    )
    .join(',');
}
