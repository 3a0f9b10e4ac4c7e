// Browser tests of the course pages (demos/<id>.html, web/pages/<id>.js) in headless Chromium, in
// both builds (isolated server: 'threads'; --no-isolation: 'simd'). For every page:
//   - it loads without page or console errors and runs the expected build;
//   - its side views and 3D views are drawn (not blank) and its plot is drawn; the views selector
//     shows the side views alone (the 3D views hidden and not rendered), the 3D views alone, or both;
//   - each slider or selector, moved through the page's own input, changes the drawing or the headline
//     (a control marked `table` may instead change the page's table of values);
//   - the page's headline number per preset equals the JS API's on the same scene, computed here in
//     Node with the page's spec (web/course_model.js runLane), within 1 %;
//   - the page's physics: its headline against the closed form where the model should meet it;
//   - CSV export holds the plotted series; embed mode (?embed=1) folds the panel and takes the camera
//     from the URL (the side views' cx, cy, span and the 3D camera). Screenshots in build/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../js/index.js';
import { runLane } from '../../web/course_model.js';
import { launch, open, inked, canvasHash, shot, assertClean, MODES } from './harness.mjs';
import { PAGES } from './course_pages.mjs';

let h, tribo;
before(async () => { h = await launch(); tribo = await init({ build: 'simd' }); });
after(async () => { await h?.close(); });

/** Fields of one CSV line (quoted fields may hold commas). */
const csvFields = (line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
const close = (a, b, rel, abs = 1e-6) => a === b || (a != null && b != null && Math.abs(a - b) <= Math.max(abs, rel * Math.abs(b)));

/** Which lane canvases the page shows (not display: none), by class. */
const shown = (page) => page.evaluate(() => Object.fromEntries(['side', 'view3d'].map((c) => [c,
  [...document.querySelectorAll(`.lane:not(.unavailable) canvas.${c}`)].filter((e) => getComputedStyle(e).display !== 'none').length])));

/** The views selector: side alone (3D hidden and not rendered while hidden), 3D alone (rendered once
 * per lane and step), both again. */
async function views(page, id, n) {
  const select = async (mode) => { await page.selectOption('#view-mode', mode); return page.evaluate(() => window.course.renders3d); };
  let r0 = await select('side');
  await page.evaluate(() => window.course.step(3));
  assert.deepEqual(await shown(page), { side: n, view3d: 0 }, `${id}: side views alone`);
  assert.equal(await page.evaluate(() => window.course.renders3d), r0, `${id}: hidden 3D views do not render`);
  r0 = await select('3d');
  await page.evaluate(() => window.course.step(3));
  assert.deepEqual(await shown(page), { side: 0, view3d: n }, `${id}: 3D views alone`);
  assert.equal(await page.evaluate(() => window.course.renders3d), r0 + n, `${id}: one 3D frame per lane and redraw`);
  await shot(page, `course-${id}-3d`);
  /* dragging on one 3D view orbits the camera every lane shares: each lane renders again, the last
   * lane's picture changes too */
  const before = await page.evaluate(() => window.course.camera3dNow);
  const last = await canvasHash(page, '.lane:not(.unavailable) canvas.view3d', -1);
  r0 = await page.evaluate(() => window.course.renders3d);
  const box = await page.locator('.lane:not(.unavailable) canvas.view3d').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 3 });
  await page.mouse.up();
  const after = await page.evaluate(() => window.course.camera3dNow);
  assert.notDeepEqual(after.eye, before.eye, `${id}: the drag orbited the camera`);
  assert.deepEqual(after.target, before.target, `${id}: about its target`);
  const renders = await page.evaluate(() => window.course.renders3d) - r0;
  assert.ok(renders >= n && renders % n === 0, `${id}: every lane rendered again (${renders} frames, ${n} lanes)`);
  assert.notEqual(await canvasHash(page, '.lane:not(.unavailable) canvas.view3d', -1), last, `${id}: the last lane's view turned with it`);
  await select('both');
  assert.deepEqual(await shown(page), { side: n, view3d: n }, `${id}: both views`);
}

/** Moves a page input to `value` the way a user does (input / change events). */
const setInput = (page, key, value) => page.evaluate(([k, v]) => {
  const input = document.getElementById(`param-${k}`);
  input.value = String(v);
  input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
}, [key, value]);

for (const def of PAGES) {
  test(`course page ${def.id}: loads in both builds, draws, every control changes it, headline = JS API`, { timeout: 240_000 }, async (t) => {
    const { default: spec } = await import(`../../web/pages/${def.id}.js`);
    const steps = def.steps;
    for (const [mode, key, build] of MODES) {
      const { page, log, close: done } = await open(h.browser, h.servers[key], `demos/${def.id}.html?paused=1`);
      assert.equal(await page.evaluate(() => window.course.build), build, `${mode}: build`);
      const headline = await page.evaluate((n) => window.course.step(n), steps);
      const ink = await inked(page, '.lane:not(.unavailable) canvas.side');
      assert.ok(ink.length >= 1 && ink.every((n) => n > 150), `${def.id}/${mode}: side views drawn (inked ${ink})`);
      /* one 3D view per available lane, each showing its world (a canvas of 79 200 pixels) */
      const ink3d = await inked(page, '.lane:not(.unavailable) canvas.view3d');
      assert.ok(ink3d.length === ink.length && ink3d.every((n) => n > 2000), `${def.id}/${mode}: 3D views drawn (inked ${ink3d})`);
      const plotInk = await inked(page, '#plot canvas');
      assert.ok(plotInk[0] > 500, `${def.id}/${mode}: plot drawn (${plotInk})`);

      /* the headline on the same scene, computed with the JS API */
      const params = await page.evaluate(() => window.course.params);
      for (const preset of spec.presets) {
        const lane = runLane(tribo, spec, preset, params, steps), name = lane.preset;
        if (lane.error) { assert.equal(headline[name] ?? null, null); continue; }
        assert.ok(close(headline[name], lane.headline(), 0.01, def.abs ?? 1e-6),
          `${def.id}/${mode}/${name}: page headline ${headline[name]} vs JS API ${lane.headline()}`);
        lane.free();
      }
      def.physics?.(headline, params, `${def.id}/${mode}`);
      await def.check?.(page);

      if (mode === 'isolated') {
        /* every control changes the scene (drawing) or its number */
        for (const p of spec.params) {
          const other = def.moves?.[p.key] ?? (p.options ? p.options.map((o) => o?.value ?? o).find((v) => v !== params[p.key]) : (params[p.key] === p.max ? p.min : p.max));
          const looks = async () => ({ hash: await canvasHash(page, '.lane:not(.unavailable) canvas'), head: JSON.stringify(await page.evaluate(() => window.course.headline)), table: await page.locator('#table').textContent() });
          const before = await looks();
          await setInput(page, p.key, other);
          await page.evaluate((n) => window.course.step(n), steps);
          const after = await looks();
          /* a control changes the drawing, the headline, or (a table control) the page's table of values */
          assert.ok(before.hash !== after.hash || before.head !== after.head || (p.table && before.table !== after.table), `${def.id}: moving ${p.key} to ${other} changed nothing`);
          assert.equal(await page.evaluate((k) => window.course.params[k], p.key), other, `${def.id}: ${p.key} reached the page's params`);
          await setInput(page, p.key, params[p.key]);
        }
        await page.evaluate((n) => window.course.step(n), steps);
        const csv = (await page.evaluate(() => window.course.csv())).trim().split('\n');
        assert.ok(csv.length >= 3, `${def.id}: CSV has a header and rows`);
        assert.equal(csvFields(csv[0]).length, csvFields(csv[1]).length, `${def.id}: CSV rows as wide as the header`);
        await shot(page, `course-${def.id}`);
        await views(page, def.id, ink.length);
      }
      assertClean(log, `${def.id}/${mode}`);
      await done();
    }
    /* embed mode: compact, panel folded, camera from the URL */
    const { page, log, close: done } = await open(h.browser, h.servers.plain, `demos/${def.id}.html?paused=1&embed=1&cx=0.5&cy=0.25&span=2&camera=1,1.5,3,0,0.3,0`, { viewport: { width: 640, height: 480 } });
    const e = await page.evaluate(() => ({ embed: document.body.classList.contains('embed'), panelOpen: document.getElementById('panel').open, explainOpen: document.getElementById('explain').open }));
    assert.deepEqual(e, { embed: true, panelOpen: false, explainOpen: false }, `${def.id}: embed mode`);
    assert.deepEqual(await page.evaluate(() => window.course.camera), { center: [0.5, 0.25], metersAcross: 2 }, `${def.id}: camera from the URL`);
    assert.deepEqual(await page.evaluate(() => window.course.camera3d), { eye: [1, 1.5, 3], target: [0, 0.3, 0] }, `${def.id}: 3D camera from the URL`);
    await page.evaluate((n) => window.course.step(n), steps);
    assert.ok((await inked(page, '.lane:not(.unavailable) canvas.view3d')).every((n) => n > 2000), `${def.id}/embed: 3D views drawn`);
    await shot(page, `course-${def.id}-embed`);
    assertClean(log, `${def.id}/embed`);
    await done();
    t.diagnostic(`${def.id}: ok`);
  });
}

test('gallery (demos/, the URL make demo prints): a card per demo, every link opens a page, waiting concepts say what for', { timeout: 90_000 }, async () => {
  const { DEMOS } = await import('../../web/catalogue.js');
  const { page, log, close: done } = await open(h.browser, h.servers.isolated, 'demos/', { global: 'gallery' });
  const cards = await page.evaluate(() => [...document.querySelectorAll('.card')].map((c) => ({ href: c.querySelector('a')?.getAttribute('href') ?? null, text: c.textContent })));
  assert.equal(cards.length, DEMOS.length);
  DEMOS.forEach((d, k) => {
    if (d.page) assert.equal(cards[k].href, `${d.page}.html`, `${d.title}: linked`);
    else assert.ok(cards[k].href === null && /arrives with|not written yet/.test(cards[k].text), `${d.title}: no page, says why`);
  });
  assert.equal(cards.find((c) => /Soft constraints/.test(c.text)).href, 'soft.html', 'the mujoco preset has landed: its page is linked');
  assert.equal(cards.find((c) => /Islands and sleeping/.test(c.text)).href, 'sleeping.html', 'islands and automatic sleep have landed: page 14 is linked');
  for (const c of cards.filter((x) => x.href)) {
    const r = await page.request.get(`${h.servers.isolated.url}${c.href}`);
    assert.equal(r.status(), 200, `${c.href} served`);
  }
  await shot(page, 'gallery');
  assertClean(log, 'gallery');
  await done();
});

test('embedding page (demos/embed.html): every <tribo-scene> draws and steps, its source is shown, markers equal its frame\'s contacts', { timeout: 120_000 }, async () => {
  const { page, log, close: done } = await open(h.browser, h.servers.isolated, 'demos/embed.html', { global: 'embed' });
  assert.equal(await page.evaluate(() => window.embed.scenes), 3);
  /* each element has run until its bodies rest: 120 steps (2 s). The newton-xpbd pile's contact
   * list flickers while it lands (steps 37-38 list none: a body is in the air at the end of the
   * step's last substep), and from step 110 on it holds its 20 resting contacts */
  await page.waitForFunction(() => [...document.querySelectorAll('tribo-scene')].every((s) => s.frame?.step >= 120 && s.frame.contacts.count > 0), null, { timeout: 90_000, polling: 200 });
  const scenes = await page.evaluate(() => [...document.querySelectorAll('tribo-scene')].map((s) => {
    const c = s.shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) ink += Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24;
    return { ink, markers: s.stats.markers, contacts: s.frame.contacts.count, source: s.closest('figure').querySelector('pre.source')?.textContent ?? '' };
  }));
  scenes.forEach((s, k) => {
    assert.ok(s.ink > 2000, `scene ${k}: drawn (${s.ink} pixels)`);
    assert.ok(s.contacts > 0 && s.markers === s.contacts, `scene ${k}: ${s.markers} markers for ${s.contacts} contacts`);
    assert.match(s.source, /^<tribo-scene /, `scene ${k}: its HTML is shown`);
  });
  assert.match(scenes[2].source, /application\/json/, 'the inline scene shows its JSON');
  await shot(page, 'embed');
  assertClean(log, 'embed');
  await done();
});
