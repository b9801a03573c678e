// `npm run bench`: the performance budgets (docs/architecture.md) measured on this machine (see main.mjs).
// This entry only lets the bench import TypeScript (the core's password transform, the server's
// seed) through tsx, then runs it.
import { register } from 'tsx/esm/api';

register();
await import('./main.mjs');
