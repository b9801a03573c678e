// Memory routing keeps <iam-console>'s `route` attribute and the console's location in step in
// both directions. The console may announce a page it is still showing after the host has asked
// for another (its first announcement waits for the page title; a re-render announces again):
// written back, that stale page would replace the host's request. A RouteFollower tells such
// announcements apart.
export class RouteFollower {
  /** What the `route` attribute holds: the host's last request, or the console's last move. */
  #requested: string | undefined;
  /** Pages the host has asked the console to leave since its last accepted announcement. */
  readonly #left = new Set<string>();

  /** The host set `route` (attribute or property) to `route`. */
  request(route: string | null): void {
    if (route === null || route === this.#requested) return;
    if (this.#requested !== undefined) this.#left.add(this.#requested);
    this.#left.delete(route);
    this.#requested = route;
  }

  /** The console announces `path`; answers false when it is a page the host already left. */
  accept(path: string): boolean {
    if (path !== this.#requested && this.#left.has(path)) return false;
    this.#left.clear();
    this.#requested = path;
    return true;
  }
}
