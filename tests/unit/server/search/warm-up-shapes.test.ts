/**
 * The search threads' warm-up gives its searches inputs of the shapes a user's search brings (issue 29): V8 optimizes a
 * function for the hidden classes (and arrays' elements kinds) it has seen, and the warm-up's own literals had others
 * than the structured clone of a task sent to the thread (and than the populations the server loads) — the code it
 * optimized deoptimized on the first real searches, compiling again on the helper threads two searches at a time need.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fullSiblings, matchPopulation } from '../../../../bench/engine-fixtures';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { IndexSet } from '../../../../server/matching/index-set';
import { rulePopulation } from '../../../../server/matching/search-input-shapes';
import { runWarmTask } from '../../../../server/search/search-worker';
import { warmUp } from '../../../../server/search/warm-up';
import type { WarmTask } from '../../../../server/search/warm-up-rounds';

// V8's own test of two objects' hidden classes (a parser flag: functions made after it may use natives syntax).
setFlagsFromString('--allow-natives-syntax');
// Each object moved first to its class's newest version: a later object whose field holds another kind of value (a
// double where a small integer was) replaces a class in place, and the objects made before move to it when next read.
const haveSameMap = new Function('a', 'b', '%TryMigrateInstance(a); %TryMigrateInstance(b); return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** The paths where `a` and `b` (or what they hold: object fields, first array elements and Map values) have other hidden classes. */
function otherShapes(a: unknown, b: unknown, path = '$'): string[] {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null || ArrayBuffer.isView(a)) return [];
  if (!haveSameMap(a, b)) return [path];
  if (a instanceof Map) return a.size > 0 && b instanceof Map ? otherShapes([...a.values()][0], [...b.values()][0], `${path}.get()`) : [];
  if (Array.isArray(a)) return a.length > 0 ? otherShapes(a[0], (b as unknown[])[0], `${path}[0]`) : [];
  return Object.keys(a).flatMap((key) => otherShapes((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`));
}

function database(n: number): IndexSet {
  const generate = profileGenerator(fbi2015Population('Caucasian'), 29);
  const set = new IndexSet();
  for (let i = 0; i < n; i++) set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'A', sampleType: 'Convicted Offender', genotypes: generate() });
  return set;
}

describe("the warm-up's search inputs", () => {
  // One warm-up (its keyboard search and two rounds: each search whole, then the kinship and mixture ones as a split's slice)
  // over an index large enough for rounds, every task kept as it reached the thread's search (a split's last: its slice's).
  const set = database(21_000);
  const tasks = new Map<string, WarmTask>();
  warmUp(set, (task, on, whole, split) => (tasks.set(task.task, task), runWarmTask(task, on, whole, split)), undefined, { cpuMs: 60_000, wallMs: 60_000, rounds: 2 });

  it('reach its searches as a task sent to the thread does: a structured clone, every object and array of it', () => {
    expect([...tasks.keys()].sort()).toEqual(['identity', 'keyboard', 'keyboard-chance', 'mixture-rule', 'rules', 'scan']);
    for (const task of tasks.values()) expect(otherShapes(task, structuredClone(task)), task.task).toEqual([]);
  });

  it('have the shapes of the populations and analyses the server loads and the benchmark sends', () => {
    const scan = tasks.get('scan') as Extract<WarmTask, { task: 'scan' }>;
    // The benchmark's population is made by the loader's factory (search-input-shapes.ts), and its analysis from the seeds as the warm-up's.
    expect(otherShapes(scan.request.population, structuredClone(matchPopulation))).toEqual([]);
    expect(otherShapes(scan.request.analysis, structuredClone(fullSiblings))).toEqual([]);
    const rules = tasks.get('rules') as Extract<WarmTask, { task: 'rules' }>;
    const loaded = rulePopulation('id', 'name', 'Autosomal', false, matchPopulation.frequencies, []);
    expect(otherShapes(rules.rules[0]![0]!.populations[0], structuredClone(loaded))).toEqual([]);
  });

  it('tells a literal from a clone (the check itself)', () => {
    expect(otherShapes({ frequencies: matchPopulation.frequencies }, structuredClone({ frequencies: matchPopulation.frequencies }))).toEqual(['$']);
    expect(otherShapes([['12', '13']], structuredClone([['12', '13']]))).toEqual(['$']);
  });
});
