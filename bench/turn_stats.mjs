// The statistics of runs in turns (ab.mjs, scaling_ab.mjs): the median of per-turn values and its
// bootstrap interval.
import { rng } from '../web/scene.js';

/** The median of xs (the upper one of an even count). */
export const median = (xs) => xs.slice().sort((x, y) => x - y)[xs.length >> 1];

/**
 * 95 % interval of the median of values: the median of `resamples` resamples (with a fixed seed, so
 * a rerun of the same values prints the same interval). An interval that holds 1 says the run did
 * not tell the two sides apart.
 */
export function medianInterval(values, resamples = 2000) {
  const random = rng(0x9e3779b9);
  const medians = [];
  for (let r = 0; r < resamples; ++r) medians.push(median(values.map(() => values[Math.floor(random() * values.length)])));
  medians.sort((x, y) => x - y);
  return [medians[Math.floor(0.025 * resamples)], medians[Math.ceil(0.975 * resamples) - 1]];
}
