// Loads data for a screen: the latest answer wins, a failure is kept (the HTTP client has already
// shown its message), `reload` asks again.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  data?: T;
  failed: boolean;
  loading: boolean;
  reload: () => void;
}

export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; failed: boolean; loading: boolean }>({ failed: false, loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  // `load` changes identity every render; `deps` say when it means something else.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableLoad = useCallback(load, deps);

  useEffect(() => {
    const id = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    stableLoad().then(
      (data) => id === latest.current && setState({ data, failed: false, loading: false }),
      () => id === latest.current && setState((previous) => ({ ...previous, failed: true, loading: false })),
    );
  }, [stableLoad, round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}
