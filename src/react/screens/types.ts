// What every lazily loaded screen receives from the console's outlet.
import type { RouteDef } from '../../core/routes';

export interface ScreenProps {
  /** The route shown (name, parent, …), from the core's route table. */
  route: RouteDef;
  /** Decoded path parameters, e.g. `{ id }` of /app/detail/:id. */
  params: Record<string, string>;
}
