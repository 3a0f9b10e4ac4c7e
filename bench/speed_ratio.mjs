// The speed-up table's cells (bench/run.mjs): a ratio only between runs that did the scene's work.
// A pyramid that fell, a pile whose bodies left the container, or a state that went NaN steps other
// contacts (or none): its time is not comparable, so it gets a mark and no ratio.

/**
 * Why a scene's run is not the scene's work, or '' when it is.
 * @param {'pyramid'|'pile'|string} scene
 * @param {{ stands?: boolean, escaped?: number, nonFinite?: boolean } | undefined} r  a run's end check
 * @returns {string} 'NaN state', 'fell' (pyramid), 'N escaped' (pile), or ''
 */
export function sceneFailure(scene, r) {
  if (!r) return '';
  if (r.nonFinite) return 'NaN state';
  if (scene === 'pyramid' && r.stands === false) return 'fell';
  if (scene === 'pile' && r.escaped > 0) return `${r.escaped} escaped`;
  return '';
}

/** A ratio as the report prints it ("1.25×"), or a dash when it is not a number. */
export function fmtRatio(x) { return Number.isFinite(x) ? `${x.toFixed(2)}×` : '–'; }

/**
 * One cell of the speed-up table: peer ms / Tribo ms (> 1: Tribo faster), or why there is none.
 * @param {string} scene
 * @param {{ ms: number } & object | undefined} peer   the peer engine's result for the scene
 * @param {{ ms: number } & object | undefined} tribo  the Tribo entry's result for the scene
 * @returns {string}
 */
export function speedRatioCell(scene, peer, tribo) {
  const own = sceneFailure(scene, tribo);
  if (own) return `n/a (${own})`;
  const theirs = sceneFailure(scene, peer);
  if (theirs) return `n/a (peer: ${theirs})`;
  return fmtRatio(peer?.ms / tribo?.ms);
}
