import { useCallback, useSyncExternalStore } from 'react';

/**
 * Spec 4 "Loading": a named flag that is true while an asynchronous action runs and false when it
 * ends, on success or failure. Runs are counted, so two overlapping saves under one name keep the
 * flag up until both have finished.
 */
export interface LoadingRegistry {
  isLoading(name: string): boolean;
  subscribe(listener: () => void): () => void;
  /** Runs `work` (a promise, or a function returning one) with `name` marked as loading. */
  withLoading<T>(name: string, work: Promise<T> | (() => Promise<T>)): Promise<T>;
}

export function createLoadingRegistry(): LoadingRegistry {
  const running = new Map<string, number>();
  const listeners = new Set<() => void>();
  const change = (name: string, by: number) => {
    const count = (running.get(name) ?? 0) + by;
    if (count > 0) running.set(name, count);
    else running.delete(name);
    for (const listener of listeners) listener();
  };
  return {
    isLoading: (name) => running.has(name),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async withLoading(name, work) {
      change(name, +1);
      try {
        return await (typeof work === 'function' ? work() : work);
      } finally {
        change(name, -1);
      }
    },
  };
}

/** The app's registry; tests and stories may pass their own. */
export const loadingRegistry = createLoadingRegistry();

export function withLoading<T>(name: string, work: Promise<T> | (() => Promise<T>), registry = loadingRegistry): Promise<T> {
  return registry.withLoading(name, work);
}

export function useLoading(name: string, registry = loadingRegistry): boolean {
  const get = useCallback(() => registry.isLoading(name), [registry, name]);
  return useSyncExternalStore(registry.subscribe, get, get);
}
