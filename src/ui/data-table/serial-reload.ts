/**
 * Reads a paged list again one read at a time. Reloading at once on every change starved the grid
 * (issue 18: while searches finished every few hundred milliseconds in another session, each change
 * dropped the read still under way, so no answer was ever shown and the Hits page kept its old rows
 * and count): a reload asked while a read is under way now waits for that read to be shown, then
 * runs once for every change heard meanwhile.
 */
export interface SerialReload {
  /** A read starts; call the returned function once its answer is shown (or it failed). */
  started(): () => void;
  /** Whether an answer of the read started at `generation` still belongs to what the list shows. */
  current(generation: number): boolean;
  /** The generation a read starting now belongs to. */
  readonly generation: number;
  /** The list changed on the server: read again now, or as soon as the reads under way are shown. */
  request(): void;
  /** The rows were dropped and are being read afresh (a new search): earlier answers no longer count. */
  restart(): void;
}

export function serialReload(reload: () => void): SerialReload {
  let underWay = 0;
  let waiting = false;
  let generation = 0;
  const run = () => {
    waiting = false;
    generation++;
    reload();
  };
  return {
    started() {
      underWay++;
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        underWay--;
        if (underWay === 0 && waiting) run();
      };
    },
    current: (g) => g === generation,
    get generation() {
      return generation;
    },
    request() {
      if (underWay > 0) waiting = true;
      else run();
    },
    restart() {
      waiting = false;
      generation++;
    },
  };
}
