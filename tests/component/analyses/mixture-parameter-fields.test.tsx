/**
 * Issue 30 / GENETICS.md "Mixtures": under Hd the unknown in the person of interest's place takes the unknowns'
 * drop-out (LRmix Studio, forensim), as the server now computes; the form said it took the person of interest's.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MixtureParameterFields } from '../../../src/analyses/mixture-parameter-fields';

describe('mixture parameter fields', () => {
  it("say, with a drop-out per contributor, that Hd's unknown in the person of interest's place takes the unknowns' value", () => {
    render(
      <MixtureParameterFields
        values={{ contributors: '3', dropIn: '0.05', theta: '0.01', dropout: 'each', dropoutAll: '', dropoutEach: ['0.1', '0.2', '0.3'] }}
        errors={{}}
        contributorLabels={['Person of interest', 'Known contributor 1', 'Unknown 1']}
        hpHolds="the person of interest"
        onEdit={() => {}}
        onChooseDropout={() => {}}
        onEditDropout={() => {}}
      />,
    );
    expect(screen.getByText(/Under Hd the unknown in the person of interest’s place takes the unknowns’ value/)).toBeInTheDocument();
  });
});
