// The attribute tables: one per element (the ./*/attributes.ts modules, gathered in
// elementAttributes below), built from the entries of ./attribute-spec.ts. From an element's table come its
// r2wc props (reactProps), its boolean attributes, its typings (AttributesOf for React JSX and the
// attribute interfaces, PropertiesOf for the element class), the attributes of custom-elements.json
// (scripts/manifest.mjs) and therefore docs/elements.md. test/unit/element-attributes.test.ts fails
// when one of them drifts. Each table is its own module, so that the sign-in entry bundles only its
// own. These modules import no runtime code: the build scripts load them on their own (esbuild).
import { consoleAttributes } from './console/attributes';
import { loginAttributes } from './login-attributes';
import { passwordDialogAttributes } from './password-dialog/attributes';
import { profileDialogAttributes } from './profile-dialog/attributes';
import { providerAttributes } from './provider/attributes';

/** Every element's table, by tag name. */
export const elementAttributes = {
  'iam-console': consoleAttributes,
  'iam-login': loginAttributes,
  'iam-profile-dialog': profileDialogAttributes,
  'iam-password-dialog': passwordDialogAttributes,
  'iam-provider': providerAttributes,
} as const;

export type ElementTag = keyof typeof elementAttributes;
type Table<Tag extends ElementTag> = (typeof elementAttributes)[Tag];

/** The value an attribute takes in markup. */
type AttributeValue<Spec> = Spec extends { type: 'boolean' } ? boolean | '' : Spec extends { values: readonly (infer Value)[] } ? Value : string;
/** The value of the property an attribute drives. */
type PropertyValue<Spec> = Spec extends { type: 'boolean' } ? boolean : Spec extends { values: readonly (infer Value)[] } ? Value | (string & {}) : string;

/** The attributes of `Tag` as markup takes them (React 19 JSX, Vue templates). */
export type AttributesOf<Tag extends ElementTag> = { -readonly [Name in keyof Table<Tag>]?: AttributeValue<Table<Tag>[Name]> };

/** The properties of `Tag` that its React app receives (the class declares the element-only ones itself). */
export type PropertiesOf<Tag extends ElementTag> = {
  -readonly [
    Name in keyof Table<Tag> as Table<Tag>[Name] extends { elementOnly: true }
      ? never
      : Table<Tag>[Name] extends { property: infer Property extends string }
        ? Property
        : never
  ]: PropertyValue<Table<Tag>[Name]> | undefined;
};
