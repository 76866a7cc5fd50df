import { afterEach, describe, expect, it, vi } from 'vitest';
import { ms, percentile, printTable } from '../../../bench/bench-table';

afterEach(() => vi.restoreAllMocks());

describe('the bench tables', () => {
  it('print the introduction, then a Markdown table whose columns are as wide as their widest cell', () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    printTable('\nIntro\n', ['N', 'identity p50'], [['100,000', ms(1.25)], ['1,000,000', ms(12)]]);
    expect(printed).toEqual([
      '\nIntro\n',
      ['| N         | identity p50 |', '|-----------|--------------|', '| 100,000   | 1.3 ms       |', '| 1,000,000 | 12.0 ms      |'].join('\n'),
    ]);
  });

  it('print nothing for a table without rows (a table BENCH_ONLY left out)', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    printTable('\nIntro\n', ['N'], []);
    expect(log).not.toHaveBeenCalled();
  });

  it('say – for a figure not measured, and take the upper median', () => {
    expect(ms(null)).toBe('–');
    expect(ms(NaN)).toBe('–');
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(3);
  });
});
