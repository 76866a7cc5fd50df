/**
 * An array built by push, always packed. V8's optimized Array.prototype.map makes holey arrays where its built-in
 * makes packed ones, so code reading arrays from both sees two kinds, and its compiled form is thrown away while a
 * calculator warms up (measured: most of the pedigree engine's deoptimizations). The engine's hot arrays come from here.
 */
export function packed<T>(length: number, at: (i: number) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < length; i++) out.push(at(i));
  return out;
}
