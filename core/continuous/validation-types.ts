// A fit's model validation as the continuous LR answers it (issue 31, EuroForMix validMLEmodel): shared by the engine
// that computes it and by the PP-plot and EPG chart that draw it (screen and PDF).

/** One observed peak's cumulative probability under the fit (a point of the PP-plot). */
export interface PeakCumulative {
  marker: string;
  replicate: number;
  allele: string;
  height: number;
  cumulative: number;
}

/** Per marker and allele position: the heights observed per replicate (null: under the threshold) and the expected height. */
export interface ExpectedHeight {
  marker: string;
  allele: string;
  observed: (number | null)[];
  expected: number;
}
