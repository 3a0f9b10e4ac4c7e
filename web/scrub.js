/**
 * The time-scrub control of the demos: a slider over a Timeline's recorded range (web/timeline.js),
 * step-back / step-forward buttons, the shown step and time, and the memory bound in words.
 * Dragging the slider pauses the page and shows the chosen step exactly; while paused, the arrow
 * keys step back and forward. The page resumes with its own Pause/Resume (the recorded future
 * after the shown step is then discarded).
 * @module tribo/web/scrub
 */

const MB = 2 ** 20;

/**
 * Builds the control inside `box` (emptied) and keeps it in step with `timeline`.
 * @param {HTMLElement} box
 * @param {import('./timeline.js').Timeline} timeline
 * @param {{ timestep: number, paused: () => boolean, pause: () => any, stepLive: () => any,
 *   onError: (e: unknown) => void, ready?: () => boolean }} page
 *   timestep: s per step (for the time shown); pause: pauses the page (may return a promise);
 *   stepLive: one step of the simulation past the end of the recorded range (the page's Step);
 *   ready: false while the page replaces its world (the control then does nothing)
 * @returns {{ back: () => Promise<any>, forward: () => Promise<any>, seek: (step: number) => Promise<any> }}
 */
export function bindScrub(box, timeline, page) {
  const doc = box.ownerDocument;
  box.textContent = '';
  box.classList.add('scrub');
  const el = (tag, props) => Object.assign(doc.createElement(tag), props);
  const back = el('button', { type: 'button', id: 'scrub-back', textContent: '\u25C0', title: 'step back (\u2190 while paused)' });
  const slider = el('input', { type: 'range', id: 'scrub-slider', min: '0', max: '0', step: '1', value: '0' });
  slider.setAttribute('aria-label', 'time: step shown');
  const forward = el('button', { type: 'button', id: 'scrub-forward', textContent: '\u25B6', title: 'step forward (\u2192 while paused)' });
  const label = el('output', { id: 'scrub-step' });
  const note = el('div', { id: 'scrub-note', className: 'scrub-note' });
  const row = el('div', { className: 'scrub-row' });
  row.append(back, slider, forward, label);
  box.append(row, note);

  const { every, ring } = timeline;
  const bound = `a snapshot every ${every} steps, at most ${ring.maxCount} snapshots or ${ring.maxBytes / MB} MB (the oldest are dropped)`;

  function render() {
    const r = timeline.range;
    const shown = timeline.target ?? timeline.shown;
    slider.min = String(r ? r.first : 0);
    slider.max = String(r ? r.last : 0);
    if (doc.activeElement !== slider || timeline.target === null) slider.value = String(shown);
    label.value = `step ${shown} \u00B7 t = ${(shown * page.timestep).toFixed(2)} s`;
    note.textContent = `recorded: steps ${r ? r.first : '-'}\u2013${r ? r.last : '-'}; ${bound}; ` +
      `now ${ring.count} (${(ring.bytes / MB).toFixed(1)} MB)`;
    back.disabled = !r || shown <= r.first;
  }
  timeline.onChange(render);
  render();

  const ready = () => page.ready?.() ?? true;
  /** Pauses the page, then seeks. */
  const seek = async (step) => {
    if (!ready()) return timeline.shown;
    if (!page.paused()) await page.pause();
    return timeline.seek(step);
  };
  const stepBack = () => seek((timeline.target ?? timeline.shown) - 1);
  const stepForward = async () => {
    if (!ready()) return timeline.shown;
    if (!page.paused()) await page.pause();
    const at = timeline.target ?? timeline.shown;
    return at < timeline.last ? timeline.seek(at + 1) : page.stepLive();
  };
  const guard = (p) => Promise.resolve(p).catch(page.onError);

  slider.addEventListener('input', () => guard(seek(Number(slider.value))));
  back.addEventListener('click', () => guard(stepBack()));
  forward.addEventListener('click', () => guard(stepForward()));
  doc.addEventListener('keydown', (e) => {
    const tag = e.target?.tagName;
    if (!page.paused() || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); guard(stepBack()); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); guard(stepForward()); }
  });
  return { back: stepBack, forward: stepForward, seek };
}
