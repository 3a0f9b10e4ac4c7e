// bench/RESULTS.md layout: bench/run.mjs owns the text between BEGIN_MARK and END_MARK; the
// sections after END_MARK ("## Collision…", written by make bench-collision, bench-mesh,
// bench-broadphase) belong to those targets and survive every run.

export const BEGIN_MARK = '<!-- BEGIN bench/run.mjs: generated, rewritten by every run -->';
export const END_MARK = '<!-- END bench/run.mjs: sections below are written by make bench-collision / bench-mesh / bench-broadphase and kept -->';

/**
 * The new RESULTS.md: the generated text between BEGIN_MARK and END_MARK, then what the old file
 * held after END_MARK. An old file without markers keeps everything from its first "## Collision"
 * heading on (the sections of make bench-collision / bench-mesh / bench-broadphase).
 */
export function mergeResults(old, generated) {
  let tail = '';
  const e = old.indexOf(END_MARK);
  if (e >= 0) {
    tail = old.slice(e + END_MARK.length).replace(/^\n+/, '');
  } else {
    const m = /^## Collision/m.exec(old);
    if (m) tail = old.slice(m.index);
  }
  return `${BEGIN_MARK}\n${generated.replace(/\n+$/, '')}\n\n${END_MARK}\n\n${tail}`.replace(/\n+$/, '') + '\n';
}
