import { useMemo } from 'react';
import { pedigreeSvg } from '../../core/pedigree-diagram';
import type { PedigreePersonInput } from '../../core/schemas/pedigrees';

/** A pedigree drawn by core/pedigree-diagram (typed persons grey, the tested person marked), as an image whose alt text names who is drawn. */
export function PedigreeDiagram({ persons, typed, target, label }: { persons: readonly PedigreePersonInput[]; typed: readonly string[]; target: string; label: string }) {
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pedigreeSvg(persons, { typed, target }))}`, [persons, typed, target]);
  const alt = `${label}: ${persons.length} persons; typed ${typed.join(', ')}; tested person ${target}`;
  return (
    <figure className="pedigree-result__diagram">
      <img src={src} alt={alt} />
    </figure>
  );
}
