// Engine names of the bench: `<module>[:<param>]…`, a parameter being a word or key=value.

/** `tribo:threads:preset=newton-xpbd` → { module: 'tribo', params: { threads: true, preset: 'newton-xpbd' } }. */
export function parseEngineName(name) {
  const [module, ...rest] = name.split(':');
  const params = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) params[p] = true; else params[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return { module, params };
}
