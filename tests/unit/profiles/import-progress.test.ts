import { describe, expect, it } from 'vitest';
import type { ProfileImportJob } from '../../../core/schemas/profile-imports';
import { nextProgressMark } from '../../../machines/profileImport.machine';
import { progressText } from '../../../src/profiles/import-progress';

const job = (patch: Partial<ProfileImportJob>): ProfileImportJob =>
  ({
    id: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    fileName: 'gm100k.txt',
    fileBytes: 70_000_000,
    state: 'parsing',
    done: 0,
    total: 0,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...patch,
  }) as ProfileImportJob;

describe('the progress of a large import (gm100k.txt: 16 min reading, 7 min checking)', () => {
  it('says how long the file has been read while the worker has not counted its profiles yet', () => {
    expect(progressText(job({ updatedAt: '2026-11-22T10:16:05.000Z' }), null)).toBe('Reading gm100k.txt (68,360 kB)… for 16 min 5 s');
  });

  it('shows the counts of checking, its rate and the time left, from the first read of the phase', () => {
    const first = job({ state: 'checking', done: 10_000, total: 100_000, updatedAt: '2026-11-22T10:20:00.000Z' });
    const mark = nextProgressMark(null, first);
    expect(progressText(first, mark)).toBe('Checking… 10,000 of 100,000 profiles');
    // 30,000 more in 2 min: 250 a second; 60,000 left → 4 min.
    const later = job({ state: 'checking', done: 40_000, total: 100_000, updatedAt: '2026-11-22T10:22:00.000Z' });
    expect(nextProgressMark(mark, later)).toBe(mark);
    expect(progressText(later, mark)).toBe('Checking… 40,000 of 100,000 profiles (250 a second, about 4 min 0 s left)');
  });

  it('counts a new phase from its own start, not from the phase before', () => {
    const storing = nextProgressMark(null, job({ state: 'parsing', done: 90_000, total: 100_000, updatedAt: '2026-11-22T10:16:00.000Z' }));
    const adding = job({ state: 'adding', done: 2_000, total: 100_000, updatedAt: '2026-11-22T10:30:00.000Z' });
    const mark = nextProgressMark(storing, adding);
    expect(mark).toEqual({ state: 'adding', done: 2_000, at: '2026-11-22T10:30:00.000Z' });
    expect(progressText(adding, mark)).toBe('Adding… 2,000 of 100,000');
    expect(progressText(job({ state: 'adding', done: 2_600, total: 100_000, updatedAt: '2026-11-22T10:31:00.000Z' }), mark)).toBe(
      'Adding… 2,600 of 100,000 (10 a second, about 2 h 42 min left)',
    );
  });

  it('shows the storing of the rows with its rate', () => {
    const mark = { state: 'parsing' as const, done: 0, at: '2026-11-22T10:00:00.000Z' };
    expect(progressText(job({ done: 5_000, total: 100_000, updatedAt: '2026-11-22T10:00:10.000Z' }), mark)).toBe(
      'Reading gm100k.txt… 5,000 of 100,000 profiles stored (500 a second, about 3 min 10 s left)',
    );
  });
});
