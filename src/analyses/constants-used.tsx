import { MathText } from '../admin/analyses/math-text';

/** The constants an analysis used (θ, κ, μ …) in mathematical notation with their values: the calculator's result and HitView show the same list. */
export function ConstantsUsed({ constants }: { constants: readonly { name: string; notation: string; value: number }[] }) {
  if (constants.length === 0) return null;
  return (
    <section aria-label="Constants used">
      <h2>Constants used</h2>
      <ul className="calculator__constants">
        {constants.map((c) => (
          <li key={c.name}>
            <MathText latex={c.notation || c.name} /> = {c.value}
          </li>
        ))}
      </ul>
    </section>
  );
}
