// Text that is shown to people — a name typed at sign-in, a token's or a passkey's name, a
// description — holds only characters that show themselves. Control characters (Unicode category
// Cc) and format characters (Cf: the bidirectional overrides and isolates U+202A-U+202E and
// U+2066-U+2069, the zero-width U+200B-U+200F, U+FEFF and the rest) change how the text around
// them is displayed without being seen: "admin\u202Etxt.exe" reads as another name in the audit
// log. One predicate, used by the field rules in src/core/validation.ts and the schemas.
import * as v from 'valibot';

/** The characters refused, as the inside of a regex class: every Cc and Cf character of the Basic
 *  Multilingual Plane and the line and paragraph separators (Zl, Zp: U+2028, U+2029, which break a
 *  line where none shows), spelled out so that the rules need no `u` flag (JSON Schema has no regex
 *  flags; test/unit/core/visible-text.test.ts holds the list to Unicode's categories). Cf outside
 *  it (tag characters of flag emoji, musical notation) is not bidirectional and stays allowed. */
export const INVISIBLE_CHARACTERS = String.raw`\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2028\u2029\u2066-\u206F\uFEFF\uFFF9-\uFFFB`;

const invisible = new RegExp(`[${INVISIBLE_CHARACTERS}]`);

/** Whether `text` holds a control or format character. */
export const hasInvisibleCharacters = (text: string): boolean => invisible.test(text);

/** A regex action (so that the rule still converts to JSON Schema): `text` has none of them. */
export const visibleCharactersOnly = <TMessage extends string>(message: TMessage) =>
  v.regex<string, TMessage>(new RegExp(`^[^${INVISIBLE_CHARACTERS}]*$`), message);
