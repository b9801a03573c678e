// Types of scripts/postgres.mjs for the TypeScript tests that use it.
export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
  restart(downMs?: number): Promise<void>;
}
export function startPostgres(): Promise<ThrowawayPostgres>;
