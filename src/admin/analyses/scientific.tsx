/** A value in scientific notation (spec 2.5 formulae table), e.g. 2.500 × 10⁻³; plain for 0 and non-finite values. */
export function Scientific({ value, digits = 4 }: { value: number; digits?: number }) {
  if (value === 0 || !Number.isFinite(value)) return <span>{String(value)}</span>;
  const [mantissa, exponent] = value.toExponential(digits - 1).split('e');
  return (
    <span className="scientific">
      {mantissa} × 10<sup>{Number(exponent)}</sup>
    </span>
  );
}
