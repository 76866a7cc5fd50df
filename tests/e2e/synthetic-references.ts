import { readFileSync } from 'node:fs';

/** Mulberry32: a small seeded generator, so the same seed draws the same database on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per marker of a EuroForMix frequency table (`Allele;M1;M2…`, `;`-separated), its alleles and frequencies; Amelogenin left out. */
function readFrequencies(file: string): Map<string, { allele: string; p: number }[]> {
  const [header, ...rows] = readFileSync(file, 'utf8').trim().split(/\r?\n/).map((l) => l.split(';'));
  const markers = new Map<string, { allele: string; p: number }[]>();
  header!.slice(1).forEach((marker, j) => {
    if (/^AMEL/i.test(marker)) return;
    markers.set(marker, rows.filter((r) => r[j + 1]).map((r) => ({ allele: r[0]!, p: Number(r[j + 1]) })));
  });
  return markers;
}

/**
 * `count` unrelated references drawn from a population's frequencies (Hardy–Weinberg: two independent draws per
 * marker, from the frequencies normalized to sum 1), as a GeneMapper CSV table a laboratory exports
 * (`SampleName,Marker,Allele1,Allele2`). Names `${prefix}00001`…; the same seed gives the same table.
 */
export function syntheticReferences(frequencyFile: string, count: number, seed: number, prefix: string): string {
  const markers = readFrequencies(frequencyFile);
  const random = seeded(seed);
  const draw = (alleles: { allele: string; p: number }[], total: number) => {
    let u = random() * total;
    for (const a of alleles) if ((u -= a.p) <= 0) return a.allele;
    return alleles.at(-1)!.allele;
  };
  const totals = new Map([...markers].map(([m, alleles]) => [m, alleles.reduce((s, a) => s + a.p, 0)]));
  const lines = ['SampleName,Marker,Allele1,Allele2'];
  const width = String(count).length;
  for (let i = 1; i <= count; i++) {
    const name = `${prefix}${String(i).padStart(width, '0')}`;
    for (const [marker, alleles] of markers) {
      const pair = [draw(alleles, totals.get(marker)!), draw(alleles, totals.get(marker)!)].sort((x, y) => parseFloat(x) - parseFloat(y));
      lines.push(`${name},${marker},${pair[0]},${pair[1]}`);
    }
  }
  return lines.join('\n');
}
