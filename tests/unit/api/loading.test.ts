// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { createLoadingRegistry, useLoading } from '../../../src/api/loading';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('named loading flag (spec 4 Loading)', () => {
  it('is true while the action runs and false after it succeeds', async () => {
    const registry = createLoadingRegistry();
    const work = deferred<number>();
    const run = registry.withLoading('save', work.promise);
    expect(registry.isLoading('save')).toBe(true);
    work.resolve(7);
    await expect(run).resolves.toBe(7);
    expect(registry.isLoading('save')).toBe(false);
  });

  it('is false after the action fails, and the failure reaches the caller', async () => {
    const registry = createLoadingRegistry();
    const run = registry.withLoading('save', () => Promise.reject(new Error('boom')));
    expect(registry.isLoading('save')).toBe(true);
    await expect(run).rejects.toThrow('boom');
    expect(registry.isLoading('save')).toBe(false);
  });

  it('stays true until every overlapping run of the same name has ended, and names are independent', async () => {
    const registry = createLoadingRegistry();
    const a = deferred<void>();
    const b = deferred<void>();
    const runA = registry.withLoading('save', a.promise);
    const runB = registry.withLoading('save', b.promise);
    expect(registry.isLoading('load')).toBe(false);
    a.resolve();
    await runA;
    expect(registry.isLoading('save')).toBe(true);
    b.resolve();
    await runB;
    expect(registry.isLoading('save')).toBe(false);
  });

  it('useLoading re-renders as the flag changes', async () => {
    const registry = createLoadingRegistry();
    const { result } = renderHook(() => useLoading('hits', registry));
    expect(result.current).toBe(false);
    const work = deferred<void>();
    let run!: Promise<void>;
    act(() => {
      run = registry.withLoading('hits', work.promise);
    });
    expect(result.current).toBe(true);
    await act(async () => {
      work.resolve();
      await run;
    });
    expect(result.current).toBe(false);
  });
});
