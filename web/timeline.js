/**
 * Time scrubbing of a simulation, without DOM (web/scrub.js binds it to a slider): a bounded ring
 * of snapshots recorded every `every` steps while the simulation runs, and seeking to any step of
 * the recorded range exactly: restore the nearest snapshot at or before the chosen step, then step
 * forward to it (a snapshot holds the contacts and forces of its step too, so a restored step is
 * shown as it ran). Continuing from a step shown by seeking discards the recorded future after it,
 * as an editor's undo does. One implementation serves the main demo (a worker world: its calls
 * are async) and the preset comparison (one in-process world per lane: sync); the host's calls
 * may return promises or not.
 * @module tribo/web/timeline
 */

/** Recording interval (steps) and memory bound of the demos' timelines. */
export const TIMELINE_DEFAULTS = Object.freeze({ every: 10, maxCount: 600, maxBytes: 64 * 2 ** 20 });

/**
 * Snapshots in increasing step order, bounded by count and bytes: recording past either bound
 * drops the oldest (the newest is always kept).
 */
export class SnapshotRing {
  /** @param {{ maxCount: number, maxBytes: number }} bounds at most maxCount entries and maxBytes bytes */
  constructor({ maxCount, maxBytes }) {
    this.maxCount = maxCount;
    this.maxBytes = maxBytes;
    /** @type {{ step: number, data: any, bytes: number }[]} */
    this.entries = [];
    this.bytes = 0;
  }

  /** Oldest entry, or null. */
  get first() { return this.entries[0] ?? null; }
  /** Newest entry, or null. */
  get last() { return this.entries.at(-1) ?? null; }
  get count() { return this.entries.length; }

  /**
   * Records `data` (of size `bytes`) as the state at `step`; entries at `step` or later are
   * replaced (they were another future). Returns the entry.
   */
  record(step, data, bytes) {
    this.discardAfter(step - 1);
    const entry = { step, data, bytes };
    this.entries.push(entry);
    this.bytes += bytes;
    while (this.entries.length > 1 && (this.entries.length > this.maxCount || this.bytes > this.maxBytes)) {
      this.bytes -= this.entries.shift().bytes;
    }
    return entry;
  }

  /** The newest entry at or before `step`, or null. */
  at(step) {
    let lo = 0, hi = this.entries.length - 1, found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.entries[mid].step <= step) { found = this.entries[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  /** Drops every entry after `step`. */
  discardAfter(step) {
    while (this.entries.length && this.entries.at(-1).step > step) this.bytes -= this.entries.pop().bytes;
  }

  clear() { this.entries = []; this.bytes = 0; }
}

/**
 * A page's timeline: where the simulation is (`shown`), how far it has run (`last`), and the
 * snapshots to go back with.
 */
export class Timeline {
  /**
   * @param {{ restore(data: any, step: number): any, advance(n: number): any, truncate?(step: number): any }} host
   *   restore: puts the world(s) in a recorded state (the one at `step`); advance: steps n steps
   *   without recording and shows the last one (overlay, readouts, plots up to it), or with n = 0
   *   shows the restored state; truncate: the
   *   recorded future after `step` is discarded (plots drop their samples after it).
   * @param {{ every?: number, maxCount?: number, maxBytes?: number }} [options] every: recording
   *   interval in steps; maxCount, maxBytes: the ring's bound (TIMELINE_DEFAULTS)
   */
  constructor(host, options = {}) {
    const o = { ...TIMELINE_DEFAULTS, ...options };
    this.host = host;
    this.every = o.every;
    this.ring = new SnapshotRing(o);
    this.shown = 0; /* step on screen */
    this.last = 0; /* furthest step run: the end of the recorded range */
    this.target = null; /* step a seek is heading for */
    this._base = null; /* the entry the world descends from by stepping alone */
    this._seeking = null;
    this._listeners = [];
  }

  /** Calls `fn()` after every change of the shown step or the recorded range. */
  onChange(fn) { this._listeners.push(fn); }
  _changed() { for (const fn of this._listeners) fn(); }

  /**
   * Steps seek() reaches exactly: { first, last } (first: the oldest snapshot's step, but not the
   * world as built, step 0, once a step ran), or null before anything was recorded.
   */
  get range() {
    const oldest = this.ring.first;
    return oldest ? { first: Math.max(oldest.step, Math.min(1, this.last)), last: this.last } : null;
  }

  /** Forgets every recording; `data` (of size `bytes`) is the state at `step` (a world as built). */
  start(step, data, bytes) {
    this.ring.clear();
    this._base = this.ring.record(step, data, bytes);
    this.shown = this.last = step;
    this.target = null;
    this._changed();
  }

  /** Steps to run before the next recording is due (1…every): a page stepping several at once stops there. */
  untilDue() { return this.every - (this.shown % this.every); }

  /**
   * After a step of the running simulation to `step`: the range ends there, and every `every`
   * steps take() gives { data, bytes } (or a promise of it) to record. Stepping on from a step
   * shown by seeking first discards the recorded future. Returns take()'s promise, if any.
   */
  stepped(step, take) {
    if (this.shown < this.last) this.continueHere();
    this.shown = this.last = step;
    this._changed();
    if (step % this.every !== 0) return undefined;
    const put = (s) => { this._base = this.ring.record(step, s.data, s.bytes); this._changed(); };
    const taken = take();
    return taken && typeof taken.then === 'function' ? taken.then(put) : put(taken);
  }

  /**
   * The world changed other than by a step (a body added): the recorded future is discarded and
   * take()'s state recorded at the shown step. Returns take()'s promise, if any.
   */
  changed(take) {
    this.continueHere();
    const put = (s) => { this._base = this.ring.record(this.shown, s.data, s.bytes); this._changed(); };
    const taken = take();
    return taken && typeof taken.then === 'function' ? taken.then(put) : put(taken);
  }

  /** The simulation continues from the shown step: the recorded future after it is discarded. */
  continueHere() {
    if (this.shown >= this.last) return;
    this.ring.discardAfter(this.shown);
    this.last = this.shown;
    this.host.truncate?.(this.shown);
    this._changed();
  }

  /** Resolves when no seek is running. */
  idle() { return this._seeking ?? Promise.resolve(this.shown); }

  /**
   * Shows step `step` (rounded and clamped to the range): restores the newest snapshot at or
   * before it and steps forward, or steps forward from the shown step when that is on the way.
   * Calls made while a seek runs retarget it. Resolves with the step shown.
   */
  seek(step) {
    const r = this.range;
    if (!r || !Number.isFinite(step)) return this.idle();
    this.target = Math.min(r.last, Math.max(r.first, Math.round(step)));
    this._changed();
    if (!this._seeking) this._seeking = this._run().finally(() => { this._seeking = null; this.target = null; this._changed(); });
    return this._seeking;
  }

  async _run() {
    while (this.target !== this.shown) {
      const t = this.target;
      const from = this.ring.at(t);
      if (!from) break; /* nothing recorded at or before t (the range is empty) */
      let at = this.shown;
      if (!(from === this._base && this.shown < t)) {
        await this.host.restore(from.data, from.step);
        this._base = from;
        at = from.step;
      }
      await this.host.advance(t - at);
      this.shown = t;
      this._changed();
    }
    return this.shown;
  }
}

/** FNV-1a over the bytes of typed arrays (a state's bitwise identity, e.g. body transforms). */
export function hashBytes(...arrays) {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193) >>> 0;
  }
  return h;
}
