// The attributes of <iam-console> (the entries of ../attribute-spec.ts).
import { connection, theme, type AttributeTable } from '../attribute-spec';

export const consoleAttributes = {
  ...connection,
  // The console's app renders the theme switch, so the theme is its prop too.
  theme: { ...theme, elementOnly: false },
  'ui-embed': {
    property: 'uiEmbed',
    type: 'boolean',
    description: 'No top bar or side menu: the host draws its own chrome, and the console is as tall as its container.',
  },
  routing: {
    property: 'routing',
    type: 'string',
    values: ['history', 'memory'],
    default: 'history',
    description: '`memory` never touches the host URL, and the console is as tall as its container.',
  },
  base: { property: 'base', type: 'string', default: '/', description: 'History base path.' },
  route: { property: 'route', type: 'string', description: 'The current route in memory routing; follows the console and drives it.' },
} as const satisfies AttributeTable;
