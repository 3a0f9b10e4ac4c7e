// UI controls of the Tribo demo: Pause/Resume, Step, Reset, Drop buttons, overlay toggles,
// force-scale selector, and keyboard shortcuts (space = pause, S or . = step, R = reset, D = drop).
// The orbit camera (OrbitControls) lives in renderer.js.

/**
 * @param {Document} doc
 * @param {{ onPause: () => void, onStep: () => void, onReset: () => void, onDrop: () => void,
 *           onOverlay: (v: { points: boolean, normals: boolean, forces: boolean }) => void,
 *           onScale: (newtonsPerMetre: number) => void }} handlers
 */
export function bindControls(doc, handlers) {
  const $ = (id) => {
    const el = doc.getElementById(id);
    if (!el) throw new Error(`demo page is missing #${id}`);
    return el;
  };
  const pauseBtn = $('btn-pause');
  const stepBtn = $('btn-step');
  const resetBtn = $('btn-reset');
  const dropBtn = $('btn-drop');
  const showPoints = $('show-points');
  const showNormals = $('show-normals');
  const showForces = $('show-forces');
  const scaleSel = $('force-scale');
  const legend = $('legend-scale');

  pauseBtn.addEventListener('click', () => handlers.onPause());
  stepBtn.addEventListener('click', () => handlers.onStep());
  resetBtn.addEventListener('click', () => handlers.onReset());
  dropBtn.addEventListener('click', () => handlers.onDrop());

  const overlay = () => handlers.onOverlay({ points: showPoints.checked, normals: showNormals.checked, forces: showForces.checked });
  for (const el of [showPoints, showNormals, showForces]) el.addEventListener('change', overlay);

  const scale = () => {
    const n = Number(scaleSel.value);
    legend.textContent = `1 m = ${n} N`;
    handlers.onScale(n);
  };
  scaleSel.addEventListener('change', scale);

  doc.addEventListener('keydown', (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === ' ') { e.preventDefault(); handlers.onPause(); }
    else if (e.key === 's' || e.key === 'S' || e.key === '.') handlers.onStep();
    else if (e.key === 'r' || e.key === 'R') handlers.onReset();
    else if (e.key === 'd' || e.key === 'D') handlers.onDrop();
  });

  return {
    /** Reflects the paused state on the buttons. */
    setPaused(paused) {
      pauseBtn.textContent = paused ? 'Resume' : 'Pause';
      pauseBtn.setAttribute('aria-pressed', String(paused));
    },
    setBusy(busy) {
      for (const b of [pauseBtn, stepBtn, resetBtn, dropBtn]) b.toggleAttribute('data-busy', busy);
      resetBtn.disabled = busy;
      dropBtn.disabled = busy;
    },
    /** Applies the initial state of the toggles and scale. */
    sync() {
      overlay();
      scale();
    },
  };
}
