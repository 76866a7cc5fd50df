import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens talk to the real in-process server and draw AG Grid; on a loaded 2-core machine the first
// rows can take a few seconds, so findBy/waitFor wait up to 10 s instead of 1 s before failing.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
