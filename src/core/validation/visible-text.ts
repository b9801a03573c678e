// Text that is shown to people — a name typed at sign-in, a token's or a passkey's name, a
// description — holds only characters that show themselves. Control characters (Unicode category
// Cc) and format characters (Cf: the bidirectional overrides and isolates U+202A-U+202E and
// U+2066-U+2069, the zero-width U+200B-U+200F, U+FEFF and the rest) change how the text around
// them is displayed without being seen: "admin\u202Etxt.exe" reads as another name in the audit
// log. One predicate, used by the field rules in src/core/validation.ts and the schemas.
import * as v from 'valibot';

/** The characters refused, as the inside of a regex class (with the `u` flag). */
export const INVISIBLE_CHARACTERS = String.raw`\p{Cc}\p{Cf}`;

const invisible = new RegExp(`[${INVISIBLE_CHARACTERS}]`, 'u');

/** Whether `text` holds a control or format character. */
export const hasInvisibleCharacters = (text: string): boolean => invisible.test(text);

/** A regex action (so that the rule still converts to JSON Schema): `text` has none of them. */
export const visibleCharactersOnly = <TMessage extends string>(message: TMessage) =>
  v.regex<string, TMessage>(new RegExp(`^[^${INVISIBLE_CHARACTERS}]*$`, 'u'), message);
