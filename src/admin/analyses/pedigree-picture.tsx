import { useMemo } from 'react';
import { pedigreeSvg, type DiagramPerson } from '../../../core/pedigree-diagram';

/** A pedigree drawn by core/pedigree-diagram, shown as an image (no markup of ours reaches the page's DOM). */
export function PedigreePicture({ persons, typed, target, label }: { persons: readonly DiagramPerson[]; typed: readonly string[]; target: string; label: string }) {
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pedigreeSvg(persons, { typed, target }))}`, [persons, typed, target]);
  // The picture in words, for screen readers: each person and whose child they are.
  const alt = `${label}: ${persons.map((p) => (p.father || p.mother ? `${p.id}, child of ${[p.father, p.mother].filter(Boolean).join(' and ')}` : p.id)).join('; ')}`;
  return (
    <figure className="pedigree-picture">
      <img src={src} alt={alt} />
      <figcaption className="field__hint">{label}. Squares are men, circles women; grey: typed (a role); red with an arrow: the tested person.</figcaption>
    </figure>
  );
}
