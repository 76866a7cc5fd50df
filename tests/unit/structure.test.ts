import { describe, expect, it } from 'vitest';
import { importsOf, lineCount, sourceFiles } from './source-imports';

// Issue 30 "Structure": no two files import each other, even through others (type-only imports count: the
// shared piece belongs in a file both use), and a file holds one concept, which keeps it under 400 lines.
const CYCLE_FOLDERS = ['server', 'core', 'machines', 'src'];
const MAX_LINES = 400;

// Being split or untangled in parallel on other branches of issue 30; remove each entry once merged.
const BEING_SPLIT = new Set<string>([]);
const CYCLES_BEING_CUT = new Set<string>([]);

/** Every import cycle among `files`, each written from its smallest file round to it again (Tarjan's strongly connected components, then one loop through each). */
function importCycles(files: readonly string[]): string[] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1 || graph.get(file)!.includes(file)) components.push(component);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return components.map((component) => {
    // One loop through the component, shortest first, so the message names files a reader can open.
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const next of graph.get(queue[i]!)!) {
        if (next === start) {
          const loop = [start];
          for (let at: string | undefined = queue[i]; at !== undefined && at !== start; at = previous.get(at)) loop.splice(1, 0, at);
          return [...loop, start].join(' → ');
        }
        if (members.has(next) && !previous.has(next)) {
          previous.set(next, queue[i]!);
          queue.push(next);
        }
      }
    }
    return component.join(' → ');
  });
}

describe('structure', () => {
  it('no source file of server/, core/, machines/ or src/ imports itself through others', () => {
    const cycles = importCycles(CYCLE_FOLDERS.flatMap(sourceFiles)).filter((cycle) => !CYCLES_BEING_CUT.has(cycle));
    expect(cycles).toEqual([]);
  });

  it(`no source file of server/, core/, machines/, src/ or bench/ is over ${MAX_LINES} lines`, () => {
    const long = [...CYCLE_FOLDERS, 'bench']
      .flatMap(sourceFiles)
      .filter((file) => !BEING_SPLIT.has(file))
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
