// The attributes of <iam-provider> (the entries of ../attribute-spec.ts).
import { apiBase, locale, theme, type AttributeTable } from '../attribute-spec';

export const providerAttributes = {
  'api-base': { ...apiBase, elementOnly: true, description: 'Base of the API for the elements inside.' },
  locale: { ...locale, elementOnly: true, description: "Language for the elements inside (an element's own attribute wins)." },
  theme: { ...theme, description: "Colour theme for the elements inside (an element's own attribute wins)." },
} as const satisfies AttributeTable;
