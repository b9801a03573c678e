// `npm run seed`: sample data for demos and benchmarks. The logic lives with the server
// (server/seed/), written in TypeScript on the server's own database layer; tsx runs it.
import { register } from 'tsx/esm/api';

register();
await import('../server/seed/cli.ts');
