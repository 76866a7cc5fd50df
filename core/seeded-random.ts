/** mulberry32's state step: the n-th number of a sequence is `mulberry32At(seed + n × MULBERRY32_STEP)` (mod 2³²). */
export const MULBERRY32_STEP = 0x6d2b79f5;

/** mulberry32 (Tommy Ettinger, public domain): the number drawn at a state, uniform on [0, 1); any number of the sequence is reached without drawing those before it. */
export function mulberry32At(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32 (Tommy Ettinger, public domain): a small seeded PRNG, uniform on [0, 1); the same seed gives the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + MULBERRY32_STEP) >>> 0;
    return mulberry32At(a);
  };
}
