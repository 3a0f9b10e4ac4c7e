/*
 * Boot of a course page (classic script, so that it runs before any module): the page's HTML is
 * only <script src="../web/course_boot.js" data-page="ID">; this adds the style sheets and the
 * import map (uPlot, three.js), then mounts web/pages/ID.js with the course framework (web/course.js).
 */
(function boot() {
  const page = document.currentScript.dataset.page;
  const base = new URL('../', document.currentScript.src).href; /* the repository root */
  for (const css of ['node_modules/uplot/dist/uPlot.min.css', 'web/course.css']) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = base + css;
    document.head.append(link);
  }
  const map = document.createElement('script');
  map.type = 'importmap';
  map.textContent = JSON.stringify({ imports: {
    uplot: `${base}node_modules/uplot/dist/uPlot.esm.js`,
    three: `${base}node_modules/three/build/three.module.js`,
    'three/addons/': `${base}node_modules/three/examples/jsm/`,
  } });
  document.head.append(map);
  const main = document.createElement('script');
  main.type = 'module';
  main.textContent = `import { mountCourse } from '${base}web/course.js';\nimport spec from '${base}web/pages/${page}.js';\nmountCourse(spec);`;
  document.head.append(main);
})();
