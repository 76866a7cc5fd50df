import type { z } from 'zod';
import { AnalysisInput, type Analysis } from '../../../core/schemas/analyses';

/**
 * The analysis form's schema: AnalysisInput, plus the pedigree checks a user should see before saving (the server
 * repeats them all): a Pedigree analysis draws its pedigree, names are unique, a person has both parents or none.
 */
export const AnalysisForm = AnalysisInput.superRefine((input, ctx) => {
  if (input.kind !== 'Pedigree') return;
  if (!input.pedigree) {
    ctx.addIssue({ code: 'custom', path: ['pedigree'], message: 'Draw the pedigree: add its persons and choose the tested person' });
    return;
  }
  const seen = new Set<string>();
  input.pedigree.persons.forEach((p, i) => {
    if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['pedigree', 'persons', i, 'id'], message: 'Another person has this name' });
    seen.add(p.id);
    if ((p.father === undefined) !== (p.mother === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['pedigree', 'persons', i, p.father === undefined ? 'father' : 'mother'], message: 'Give both parents (an untyped one if unknown) or none' });
    }
  });
}) as unknown as z.ZodType<AnalysisInput, AnalysisInput>;

export const EMPTY_ANALYSIS: AnalysisInput = {
  name: '',
  label: '',
  kind: 'Computational',
  profileKind: 'Autosomal',
  roles: [''],
  threshold: null,
  active: true,
  pedigree: null,
  mutation: null,
};

/** The form's values of a stored analysis (or of the last save attempt). */
export const formValuesOf = (r: AnalysisInput | Analysis): AnalysisInput => ({
  name: r.name,
  label: r.label,
  kind: r.kind,
  profileKind: r.profileKind,
  roles: r.roles,
  threshold: r.threshold,
  active: r.active,
  pedigree: r.pedigree ?? null,
  mutation: r.mutation ?? null,
});

/** A computational analysis may weigh mutation through a pedigree it already has (autosomal only). */
export const weighsMutation = (values: Pick<AnalysisInput, 'kind' | 'profileKind'>, stored: Analysis | null): boolean =>
  values.kind === 'Pedigree' || (values.kind === 'Computational' && values.profileKind === 'Autosomal' && Boolean(stored?.pedigree));

/**
 * What a save sends. Pedigree: the pedigree drawn and its mutation models. Computational: the mutation models
 * when it has a pedigree, which this form does not edit and so leaves out (the server keeps it). Exclusion:
 * neither (null, which the server requires). Leaving a field out keeps what is stored.
 */
export function analysisBody(values: AnalysisInput, stored: Analysis | null): AnalysisInput {
  const { pedigree, mutation, ...rest } = values;
  if (values.kind === 'Pedigree') return { ...rest, pedigree, mutation };
  if (values.kind === 'Exclusion') return { ...rest, pedigree: null, mutation: null };
  return weighsMutation(values, stored) ? { ...rest, mutation } : rest;
}
