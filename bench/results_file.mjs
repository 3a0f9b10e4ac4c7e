// bench/RESULTS.md layout: bench/run.mjs owns the text between BEGIN_MARK and END_MARK; the
// sections after END_MARK ("## Collision…", written by make bench-collision, bench-mesh,
// bench-broadphase) belong to those targets and survive every run. Inside its part, the scaling
// table (BENCH_SCALING) follows SCALING_MARK: a run replaces the tables it ran and keeps the others,
// so a scaling-only run does not erase the last full run's tables, nor a full run the scaling table.

export const BEGIN_MARK = '<!-- BEGIN bench/run.mjs: generated, rewritten by every run -->';
export const END_MARK = '<!-- END bench/run.mjs: sections below are written by make bench-collision / bench-mesh / bench-broadphase and kept -->';
export const SCALING_MARK = '<!-- bench/run.mjs: the scaling table (BENCH_SCALING) from its last run; a run without it keeps it -->';

const trimEnd = (s) => s.replace(/\n+$/, '');

/**
 * The new RESULTS.md: the generated text between BEGIN_MARK and END_MARK, then what the old file
 * held after END_MARK. An old file without markers keeps everything from its first "## Collision"
 * heading on (the sections of make bench-collision / bench-mesh / bench-broadphase).
 * `generated` is { main, scaling }: the run's text for each part, or null (the part did not run) to
 * keep the old file's.
 */
export function mergeResults(old, generated) {
  let tail = '', oldMain = '', oldScaling = '';
  const b = old.indexOf(BEGIN_MARK), e = old.indexOf(END_MARK);
  if (e >= 0) {
    tail = old.slice(e + END_MARK.length).replace(/^\n+/, '');
    if (b >= 0 && b < e) {
      const part = old.slice(b + BEGIN_MARK.length, e).replace(/^\n+/, '');
      const s = part.indexOf(SCALING_MARK);
      oldMain = trimEnd(s >= 0 ? part.slice(0, s) : part);
      oldScaling = s >= 0 ? trimEnd(part.slice(s + SCALING_MARK.length).replace(/^\n+/, '')) : '';
    }
  } else {
    const m = /^## Collision/m.exec(old);
    if (m) tail = old.slice(m.index);
  }
  const main = trimEnd(generated.main ?? oldMain);
  const scaling = trimEnd(generated.scaling ?? oldScaling);
  const body = [main, scaling ? `${SCALING_MARK}\n\n${scaling}` : ''].filter(Boolean).join('\n\n');
  return trimEnd(`${BEGIN_MARK}\n${body}\n\n${END_MARK}\n\n${tail}`) + '\n';
}
