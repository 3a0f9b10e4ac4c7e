/**
 * A live uPlot line plot of a few series against one x series (usually time), shared by the
 * course pages, the preset comparison and the main demo. Series that agree would hide each other:
 * they are drawn widest first, so equal traces show as nested bands, and the reference (the
 * closed form or physical value) is drawn last, dashed, on top. The legend shows the latest
 * values while the cursor is off the plot. `csv()` gives the plotted series as text.
 * @module tribo/web/live_plot
 */
import uPlot from 'uplot';

export const REFERENCE_COLOR = '#f8fafc';
const fmt = (v) => (v == null || !Number.isFinite(v) ? 'n/a' : Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(4));

export class LivePlot {
  /**
   * @param {HTMLElement} box the element the plot goes into (emptied)
   * @param {{ x: string, y: string, series: { label: string, color: string }[], reference?: string,
   *   height?: number, history?: number, points?: boolean }} opts
   *   x, y: axis labels with units (keep them short; the page states the quantity in full);
   *   reference: label of the dashed reference series, drawn last; history: samples kept;
   *   points: draw markers instead of lines (sweeps)
   */
  constructor(box, opts) {
    this.box = box;
    this.opts = opts;
    this.history = opts.history ?? 600;
    this.labels = [opts.x, ...opts.series.map((s) => s.label), ...(opts.reference ? [opts.reference] : [])];
    this.data = this.labels.map(() => []);
    this.until = null; /* showUntil's x */
    box.textContent = '';
    const n = opts.series.length;
    const line = (s, k) => ({
      label: s.label, stroke: s.color, width: opts.points ? 0 : 2 + 2.5 * (n - 1 - k), spanGaps: false, value: (u, v) => fmt(v),
      points: opts.points ? { show: true, size: 10 - 2 * Math.min(k, 3), fill: s.color, stroke: s.color } : { show: false },
    });
    const series = [{ label: opts.x, value: (u, v) => fmt(v) }, ...opts.series.map(line)];
    if (opts.reference) series.push({ label: opts.reference, stroke: REFERENCE_COLOR, width: 1.5, dash: [7, 5], value: (u, v) => fmt(v), points: { show: false } });
    this.plot = new uPlot({
      width: this._width(), height: opts.height ?? 240,
      legend: { live: true },
      scales: {
        /* ranges never degenerate (an empty or flat series would give uPlot a zero-width axis) */
        x: { time: false, range: (u, lo, hi) => (lo == null || !(hi > lo) ? [lo ?? 0, (lo ?? 0) + 1] : [lo, hi]) },
        y: { range: (u, lo, hi) => (lo == null || !(hi > lo) ? [(lo ?? 0) - 1, (lo ?? 0) + 1] : [Math.min(0, lo - 0.05 * (hi - lo)), hi + 0.1 * (hi - lo)]) },
      },
      axes: [
        { label: opts.x, stroke: '#cbd5e1', grid: { stroke: '#2a313c' }, ticks: { stroke: '#2a313c' } },
        { label: opts.y, stroke: '#cbd5e1', grid: { stroke: '#2a313c' }, ticks: { stroke: '#2a313c' }, size: 64, labelSize: 22 },
      ],
      series,
    }, this.data, box);
    this._onResize = () => this.plot.setSize({ width: this._width(), height: opts.height ?? 240 });
    addEventListener('resize', this._onResize);
  }

  _width() { return Math.max(260, Math.min(1100, (this.box.clientWidth || 900) - 4)); }

  /** Adds one sample: x, then one value per series (null = not available), then the reference. */
  push(x, values, reference) {
    this.data[0].push(x);
    values.forEach((v, k) => this.data[k + 1].push(v == null || !Number.isFinite(v) ? null : v));
    if (this.opts.reference) this.data[this.data.length - 1].push(reference ?? null);
    if (this.data[0].length > this.history) for (const s of this.data) s.shift();
  }

  /** Replaces every series (sweeps): xs, one array per series, the reference array. */
  set(xs, ys, ref) {
    this.data = [xs, ...ys, ...(this.opts.reference ? [ref ?? xs.map(() => null)] : [])];
  }

  clear() { this.data = this.labels.map(() => []); this.until = null; this.redraw(); }

  /** x of the last sample (−Infinity when empty): a page shown back in time pushes only past it. */
  get lastX() { return this.data[0].length ? this.data[0].at(-1) : -Infinity; }

  /** Drops the samples after x (a discarded future). */
  truncate(x) {
    const n = this._countUpTo(x);
    for (const s of this.data) s.length = Math.min(s.length, n);
  }

  /** Shows only the samples up to x (a step shown back in time); null shows all. Kept until changed. */
  showUntil(x) { this.until = x; }

  /* samples with x ≤ limit (x increases; a relative 1e-9 absorbs the rounding of t = step·h) */
  _countUpTo(limit) {
    const xs = this.data[0];
    let n = xs.length;
    while (n > 0 && xs[n - 1] > limit + 1e-9 * Math.abs(limit)) n--;
    return n;
  }

  /** The data shown: every sample, or those up to showUntil's x. */
  _shown() {
    if (this.until == null) return this.data;
    const n = this._countUpTo(this.until);
    return this.data.map((s) => s.slice(0, n));
  }

  /** Draws the data; the legend shows the last sample shown unless the cursor is on the plot. */
  redraw() {
    const data = this._shown();
    this.plot.setData(data);
    const n = data[0].length;
    if (n && this.plot.cursor.left < 0) this.plot.setLegend({ idx: n - 1 });
  }

  /** The plotted series as shown, as CSV (header = labels with units). */
  csv() {
    const esc = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    const data = this._shown();
    const rows = [this.labels.map(esc).join(',')];
    for (let i = 0; i < data[0].length; i++) rows.push(data.map((s) => (s[i] == null ? '' : String(s[i]))).join(','));
    return rows.join('\n') + '\n';
  }

  destroy() { removeEventListener('resize', this._onResize); this.plot.destroy(); }
}

/** Offers text as a file download (CSV export). */
export function download(name, text, type = 'text/csv') {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
