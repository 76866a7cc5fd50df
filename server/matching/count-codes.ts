/** Count tables hold 1 per compared marker plus FAIL per failed one, so one addition counts both. */
export const COMPARED = 1;
export const FAIL = 1 << 16;
