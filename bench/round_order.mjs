// The order of the engines within one round of bench/run.mjs.

/**
 * The engines of round `round` (0-based) of `rounds`: the list turned by round · ⌈n / rounds⌉
 * places, so that no entry holds the same place in every round. An entry's place in the round
 * moved its time by up to 8 % on this host, in either direction from run to run
 * (bench/RESULTS.md "perf35": tribo-physx-tgs, sixth, against tribo-simd, first, the same
 * configuration: 1.008 when both step in one process); turned, that shows as spread over the rounds
 * instead of a bias in the medians.
 * @template T
 * @param {T[]} list  the engines in their listed order
 * @param {number} round  0 ≤ round < rounds
 * @param {number} rounds  the run's number of rounds (≥ 1)
 * @returns {T[]} a rotation of list
 */
export function roundOrder(list, round, rounds) {
  const shift = (round * Math.ceil(list.length / rounds)) % Math.max(list.length, 1);
  return [...list.slice(shift), ...list.slice(0, shift)];
}
