import type { ContinuousHypothesisResult } from '../../core/schemas/continuous';
import { Probability } from './mixture-result';

/**
 * Deconvolution (issue 31; EuroForMix deconvolve): per unknown contributor and marker the most probable genotypes
 * with their posterior probabilities at the parameters used — the major contributor's genotype is what a reporting
 * scientist asks first.
 */
export function ContinuousDeconvolution({ hypothesis }: { hypothesis: ContinuousHypothesisResult }) {
  const rows = hypothesis.deconvolution;
  if (rows.length === 0) return <p className="field__hint">No unknown contributor to deconvolve under {hypothesis.hypothesis}.</p>;
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>Deconvolution under {hypothesis.hypothesis}: the most probable genotypes of each unknown contributor</caption>
        <thead>
          <tr>
            <th scope="col">Contributor</th>
            <th scope="col">Marker</th>
            <th scope="col">Most probable genotypes (probability)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.contributor}-${row.marker}`}>
              <td>{row.contributor}</td>
              <th scope="row">{row.marker}</th>
              <td>
                {row.genotypes.map((g, i) => (
                  <span key={g.alleles.join('/')} className="continuous-result__genotype">
                    {i > 0 ? '; ' : ''}
                    {g.alleles.join('/')} (<Probability value={g.probability} />)
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
