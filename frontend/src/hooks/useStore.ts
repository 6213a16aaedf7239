import { useSyncExternalStore } from 'react';
import type { Store } from '../state/store.ts';

export function useStore<S, A>(store: Store<S, A>): S {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
