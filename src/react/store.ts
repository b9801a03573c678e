// The one way a component reads a core store (nanostores atom): its value, re-rendering on change.
//
// The stores are shared by every React root on the page (two <iam-console>, a dialog element, the
// host's own LoginForm), and many are written synchronously inside a root's effects (a request
// started on mount counts in $progress). Telling React at once schedules a synchronous render of
// the other roots in the middle of that flush; when a root was just about to commit a throttled
// Suspense reveal (a lazy screen), React 19 renders and commits the same tree first and then
// throws "Cannot commit the same tree as before" (minified error #177). Telling React in a
// microtask lets the current flush finish first; renders in between still read the current
// value, since the snapshot is the store's own.
import { useCallback, useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

export function useStore<Value>(store: ReadableAtom<Value>): Value {
  const subscribe = useCallback(
    (onChange: () => void) =>
      store.listen(() => {
        queueMicrotask(onChange);
      }),
    [store],
  );
  const read = () => store.get();
  return useSyncExternalStore(subscribe, read, read);
}
