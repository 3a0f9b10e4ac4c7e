/**
 * The embedding page (demos/embed.html): shows under each `<tribo-scene>` the HTML that made it,
 * and for tests sets window.embed = { ready, error, scenes } once every element has drawn its
 * first frame.
 * @module tribo/web/embed_page
 */
const state = (window.embed = { ready: false, error: null, scenes: 0 });
const scenes = [...document.querySelectorAll('tribo-scene')];
for (const s of scenes) {
  const pre = document.createElement('pre');
  pre.className = 'source';
  pre.textContent = s.outerHTML.replace(/\n {6,}/g, '\n  ');
  s.closest('figure').append(pre);
  s.addEventListener('error', (e) => { state.error = String(e.detail?.message ?? e.detail); });
}
customElements.whenDefined('tribo-scene')
  .then(() => Promise.all(scenes.map((s) => s.ready)))
  .then(() => { state.scenes = scenes.length; state.ready = true; })
  .catch((e) => { state.error = String(e?.message ?? e); });
