/**
 * A 2D side view (world x right, y up; z is dropped) of a small scene on a canvas: planes,
 * spheres, boxes, ellipsoids and hulls as outlines, contact points and the reported contact forces as
 * arrows. Enough for the preset comparison, where every scene lies in the x–y plane.
 * @module tribo/web/side_view
 */

/** Rotates v by the unit quaternion q = (x, y, z, w). */
function rotate(q, v) {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Strokes the convex outline (gift wrapping) of canvas points [x, y]. */
function outline(pts, ctx) {
  let start = 0;
  pts.forEach((q, k) => { if (q[0] < pts[start][0] || (q[0] === pts[start][0] && q[1] < pts[start][1])) start = k; });
  let cur = start;
  for (let guard = 0; guard <= pts.length; guard++) {
    const a = pts[cur];
    if (guard === 0) ctx.moveTo(a[0], a[1]); else ctx.lineTo(a[0], a[1]);
    let next = (cur + 1) % pts.length;
    for (let k = 0; k < pts.length; k++) {
      const b = pts[next], c = pts[k];
      const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
      if (cross < 0 || (cross === 0 && Math.hypot(c[0] - a[0], c[1] - a[1]) > Math.hypot(b[0] - a[0], b[1] - a[1]))) next = k;
    }
    cur = next;
    if (cur === start) break;
  }
  ctx.closePath();
}

export class SideView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{ center?: number[], metersAcross?: number, newtonsPerMeter?: number }} [opts]
   *   newtonsPerMeter: force arrow scale (N drawn per metre of arrow)
   */
  constructor(canvas, opts = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.center = opts.center ?? [0, 0.5];
    this.metersAcross = opts.metersAcross ?? 3;
    this.newtonsPerMeter = opts.newtonsPerMeter ?? 40;
  }

  /** A diagonal hatch pattern in `color` (cached per colour). */
  hatch(color) {
    this.hatches ??= new Map();
    if (!this.hatches.has(color)) {
      const c = document.createElement('canvas');
      c.width = c.height = 8;
      const g = c.getContext('2d');
      g.strokeStyle = color;
      g.lineWidth = 2;
      g.beginPath(); g.moveTo(0, 8); g.lineTo(8, 0); g.stroke();
      this.hatches.set(color, this.ctx.createPattern(c, 'repeat'));
    }
    return this.hatches.get(color);
  }

  /** Canvas pixel of a world point (x, y). */
  /** World point (m, x–y) under canvas pixel (u, v) of the canvas's own resolution. */
  meters(u, v) {
    const s = this.canvas.width / this.metersAcross;
    return [this.center[0] + (u - this.canvas.width / 2) / s, this.center[1] - (v - this.canvas.height / 2) / s];
  }

  px(p) {
    const s = this.canvas.width / this.metersAcross;
    return [this.canvas.width / 2 + (p[0] - this.center[0]) * s, this.canvas.height / 2 - (p[1] - this.center[1]) * s];
  }

  /**
   * Draws one frame.
   * @param {object} scene from preset_scenes.js
   * @param {import('../js/index.js').World} world
   */
  draw(scene, world) {
    const { ctx, canvas } = this;
    const s = canvas.width / this.metersAcross;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#8892a0';
    for (const pl of scene.planes) {
      const [nx, ny] = pl.normal;
      const o = [nx * pl.offset, ny * pl.offset], t = [-ny, nx];
      const a = this.px([o[0] - 10 * t[0], o[1] - 10 * t[1]]), b = this.px([o[0] + 10 * t[0], o[1] + 10 * t[1]]);
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
    /* scene.segments(world): joints' rods, world segments */
    ctx.strokeStyle = '#6b7280';
    for (const [a, b] of scene.segments?.(world) ?? []) {
      const u = this.px(a), v = this.px(b);
      ctx.beginPath(); ctx.moveTo(u[0], u[1]); ctx.lineTo(v[0], v[1]); ctx.stroke();
    }
    ctx.strokeStyle = '#d8dee9';
    for (const { id, shape } of scene.bodies) {
      const p = world.getPosition(id), q = world.getRotation(id);
      /* scene.style(id) -> { color, asleep }: filled in the colour, an asleep body hatched and dim */
      const st = scene.style?.(id);
      ctx.beginPath();
      if (shape.type === 'sphere') {
        const c = this.px(p);
        ctx.arc(c[0], c[1], shape.radius * s, 0, 2 * Math.PI);
        const r = rotate(q, [shape.radius, 0, 0]), e = this.px([p[0] + r[0], p[1] + r[1]]);
        ctx.moveTo(c[0], c[1]); ctx.lineTo(e[0], e[1]); /* a radius shows the rotation */
      } else if (shape.type === 'box') {
        const [hx, hy] = shape.halfExtents;
        [[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]].forEach(([x, y], k) => {
          const r = rotate(q, [x, y, 0]), c = this.px([p[0] + r[0], p[1] + r[1]]);
          if (k === 0) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
        });
        ctx.closePath();
      } else if (shape.type === 'ellipsoid') {
        /* the outline in the x–y plane of an ellipsoid turned about z */
        for (let k = 0; k <= 48; k++) {
          const a = (k / 48) * 2 * Math.PI;
          const r = rotate(q, [shape.radii[0] * Math.cos(a), shape.radii[1] * Math.sin(a), 0]), c = this.px([p[0] + r[0], p[1] + r[1]]);
          if (k === 0) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
        }
      } else if (shape.type === 'hull') {
        outline(shape.points.map((v) => rotate(q, v)).map((r) => this.px([p[0] + r[0], p[1] + r[1]])), ctx);
      }
      if (st) {
        ctx.globalAlpha = st.asleep ? 0.45 : 1;
        ctx.fillStyle = st.asleep ? this.hatch(st.color) : st.color + '55';
        ctx.fill();
        ctx.strokeStyle = st.color;
      }
      ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = '#d8dee9';
    }
    const c = world.contacts;
    if (scene.closestPoints) {
      /* the two surface points of each record (closest points when apart, deepest when
       * overlapping), joined: geometry of the collision stage, valid without a solve */
      ctx.strokeStyle = ctx.fillStyle = '#22d3ee';
      for (let i = 0; i < c.count; i++) {
        const a0 = this.px([c.point0[3 * i], c.point0[3 * i + 1]]), a1 = this.px([c.point1[3 * i], c.point1[3 * i + 1]]);
        ctx.setLineDash([4, 3]);
        ctx.beginPath(); ctx.moveTo(a0[0], a0[1]); ctx.lineTo(a1[0], a1[1]); ctx.stroke();
        ctx.setLineDash([]);
        for (const a of [a0, a1]) ctx.fillRect(a[0] - 3, a[1] - 3, 6, 6);
      }
      return;
    }
    if (!c.readbackValid && c.count > 0) return;
    const perContact = world.readbackInfo.perContactForce;
    for (let i = 0; i < c.count; i++) {
      const pt = [c.point[3 * i], c.point[3 * i + 1]];
      const a = this.px(pt);
      ctx.fillStyle = c.separation[i] > 1e-3 ? '#6b7280' : '#ef4444';
      ctx.fillRect(a[0] - 3, a[1] - 3, 6, 6);
      if (!perContact) continue;
      const f = [c.force[3 * i], c.force[3 * i + 1]];
      const b = this.px([pt[0] + f[0] / this.newtonsPerMeter, pt[1] + f[1] / this.newtonsPerMeter]);
      ctx.strokeStyle = '#facc15';
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
  }
}
