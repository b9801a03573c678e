// What provisioning clients send that the letter of RFC 7643/7644 does not allow, read as they mean
// it before scimmy checks a body (scimmy refuses it otherwise):
//  - booleans written as text: Microsoft Entra ID's default job sends "True" / "False" for `active`
//    (and other booleans) unless its SCIM-compliance feature flag is on ("Known issues and
//    resolutions with SCIM 2.0 protocol compliance of the Microsoft Entra user provisioning
//    service"). Any letter case is read, wherever the schema declares a boolean;
//  - a reference written as its bare id: Entra's default mapping of the enterprise extension's
//    `manager` sends `"value": "<manager's id>"` in a PATCH, where the schema declares a complex
//    `{value, $ref, displayName}`. Text given for a complex attribute with a `value` sub-attribute
//    is read as that `value`;
//  - an `add` or `replace` of `emails[type eq "work"].value` (or `phoneNumbers[type eq "mobile"]…`)
//    on a person who has no such value yet: Entra and Okta set a first e-mail or phone this way. The
//    value filter names the value to make (`{type: "work", value: …}`), server/scim/patch.ts adds it.
import type SCIMMY from 'scimmy';
import type { Filter } from 'scim2-parse-filter';
import { parseFilter } from './filter';

type Definition = SCIMMY.Types.SchemaDefinition;
type Attribute = SCIMMY.Types.Attribute;

const TEXT_BOOLEAN = /^(?:true|false)$/i;

function isDefinition(node: Definition | Attribute): node is Definition {
  return 'id' in node && Array.isArray(node.attributes);
}

/** The attribute (or extension) of `parent` named `name` (any letter case, an extension by its URN). */
function childOf(parent: Definition | Attribute, name: string): Definition | Attribute | undefined {
  if (isDefinition(parent)) {
    try {
      return parent.attribute<Definition | Attribute>(name);
    } catch {
      return undefined;
    }
  }
  return parent.subAttributes?.find((sub) => sub.name.toLowerCase() === name.toLowerCase());
}

/** `value` as the client meant it where `node` declares it: every text boolean ("True", "false", …)
 *  made a boolean, text for a complex attribute with a `value` sub-attribute made `{value}`. */
export function asMeant(node: Definition | Attribute | undefined, value: unknown): unknown {
  if (!node || value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((entry) => asMeant(node, entry));
  if (!isDefinition(node) && String(node.type) === 'boolean')
    return typeof value === 'string' && TEXT_BOOLEAN.test(value) ? value.toLowerCase() === 'true' : value;
  if (!isDefinition(node) && String(node.type) === 'complex' && typeof value === 'string' && childOf(node, 'value')) return { value };
  if (typeof value !== 'object' || (!isDefinition(node) && String(node.type) !== 'complex')) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, field]) => [key, asMeant(childOf(node, key), field)]));
}

/** The attribute a PATCH path names, its [value filters] left out (`emails[type eq "work"].value` → emails.value). */
export function attributeAt(definition: Definition, path: string): Definition | Attribute | undefined {
  return childOf(definition, path.replace(/\[[^\]]*\]/g, ''));
}

/** A filtered path `attr[a eq "x" and b eq "y"].sub` as the element it names: `{attribute, element: {a: "x", b: "y"}, sub}`;
 *  undefined for any other path (a filter with another operator does not say what to make). */
export function namedElement(path: string): { attribute: string; element: Record<string, string>; sub?: string } | undefined {
  const match = /^([^[\]]+)\[(.+)\](?:\.(\w+))?$/.exec(path.trim());
  if (!match) return undefined;
  let tree: Filter;
  try {
    tree = parseFilter(match[2]!);
  } catch {
    return undefined;
  }
  const element: Record<string, string> = {};
  for (const comparison of tree.op === 'and' ? tree.filters : [tree]) {
    if (comparison.op !== 'eq' || typeof comparison.compValue !== 'string' || comparison.attrPath.includes('.')) return undefined;
    element[comparison.attrPath] = comparison.compValue;
  }
  return { attribute: match[1]!, element, ...(match[3] ? { sub: match[3] } : {}) };
}
