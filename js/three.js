// tribo/three: a contact overlay any three.js app adds to its scene (the analogue of Rapier's
// debugRender), drawn from a World's contact views or a WorkerWorld frame:
//
//   import { ContactOverlay } from 'tribo/three';
//   const overlay = new ContactOverlay(scene, { newtonsPerMetre: 500 });
//   overlay.update(world.contacts);        // or overlay.update(await workerWorld.step())
//
// Contact views used:
//   contacts.point  (3 floats/contact, m, world)
//   contacts.normal (3 floats/contact, unit, from shape0 to shape1)
//   contacts.force  (3 floats/contact, N, average total contact force on body1 over the step, world)
//   contacts.separation (1 float/contact, m, < 0 = penetration)
// Markers: one instanced sphere per contact (one draw call); normals: line segments of fixed
// length; forces: line shafts plus instanced cone heads, length = |force| / newtonsPerMetre, capped
// at MAX_ARROW (capped arrows, e.g. impacts, are drawn in magenta).

import * as THREE from 'three';

const MARKER_RADIUS = 0.03; // m
const NORMAL_LENGTH = 0.2; // m
const MIN_ARROW = 0.01; // m: shorter force arrows are not drawn
export const MAX_ARROW = 3; // m: longer force arrows (impacts) are capped and drawn in COLOR_CAPPED
const TOUCH_SEPARATION = 0.001; // m: above this a contact is speculative (drawn dim)

const COLOR_TOUCH = new THREE.Color(0xff4d2e);
const COLOR_SPECULATIVE = new THREE.Color(0x8a8f99);
const COLOR_FORCE = new THREE.Color(0xffd23f);
const COLOR_CAPPED = new THREE.Color(0xff5ad2);

export class ContactOverlay {
  /**
   * @param {THREE.Scene} scene
   * @param {{ newtonsPerMetre?: number }} [options]
   */
  constructor(scene, { newtonsPerMetre = 500 } = {}) {
    this.scene = scene;
    this.newtonsPerMetre = newtonsPerMetre;
    this.group = new THREE.Group();
    this.group.renderOrder = 10;
    scene.add(this.group);

    this.showPoints = true;
    this.showNormals = true;
    this.showForces = true;

    this.markerGeometry = new THREE.SphereGeometry(MARKER_RADIUS, 10, 8);
    this.markerMaterial = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true, opacity: 0.95 });
    this.headGeometry = new THREE.ConeGeometry(1, 1, 10);
    this.headGeometry.translate(0, 0.5, 0); // base at 0, tip at +1 along y
    this.headMaterial = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true });
    this.normalMaterial = new THREE.LineBasicMaterial({ color: 0x3fd0ff, depthTest: false, transparent: true });
    this.shaftMaterial = new THREE.LineBasicMaterial({ color: 0xffffff, vertexColors: true, depthTest: false, transparent: true });

    this.capacity = 0;
    this._grow(256);

    /** Stats of the last update(). */
    this.stats = { contacts: 0, markers: 0, normals: 0, arrows: 0, maxForce: 0, capped: 0, overflowed: false };
  }

  _grow(capacity) {
    if (capacity <= this.capacity) return;
    let cap = Math.max(this.capacity, 256);
    while (cap < capacity) cap *= 2;
    for (const obj of [this.markers, this.heads, this.normals, this.shafts]) {
      if (!obj) continue;
      this.group.remove(obj);
      if (obj.isInstancedMesh) obj.dispose();
      else obj.geometry.dispose();
    }
    this.capacity = cap;

    this.markers = new THREE.InstancedMesh(this.markerGeometry, this.markerMaterial, cap);
    this.markers.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(cap * 3), 3);
    this.markers.frustumCulled = false;
    this.markers.count = 0;
    this.markers.renderOrder = 12;

    this.heads = new THREE.InstancedMesh(this.headGeometry, this.headMaterial, cap);
    this.heads.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(cap * 3), 3);
    this.heads.frustumCulled = false;
    this.heads.count = 0;
    this.heads.renderOrder = 11;

    const normalGeom = new THREE.BufferGeometry();
    normalGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(cap * 6), 3).setUsage(THREE.DynamicDrawUsage));
    normalGeom.setDrawRange(0, 0);
    this.normals = new THREE.LineSegments(normalGeom, this.normalMaterial);
    this.normals.frustumCulled = false;
    this.normals.renderOrder = 11;

    const shaftGeom = new THREE.BufferGeometry();
    shaftGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(cap * 6), 3).setUsage(THREE.DynamicDrawUsage));
    shaftGeom.setAttribute('color', new THREE.BufferAttribute(new Float32Array(cap * 6), 3).setUsage(THREE.DynamicDrawUsage));
    shaftGeom.setDrawRange(0, 0);
    this.shafts = new THREE.LineSegments(shaftGeom, this.shaftMaterial);
    this.shafts.frustumCulled = false;
    this.shafts.renderOrder = 11;

    this.group.add(this.normals, this.shafts, this.heads, this.markers);
  }

  setVisibility({ points, normals, forces }) {
    if (points !== undefined) this.showPoints = points;
    if (normals !== undefined) this.showNormals = normals;
    if (forces !== undefined) this.showForces = forces;
    this._applyVisibility();
  }

  _applyVisibility() {
    this.markers.visible = this.showPoints;
    this.normals.visible = this.showNormals;
    this.shafts.visible = this.showForces;
    this.heads.visible = this.showForces;
  }

  /**
   * Rebuilds the overlay from a frame's contacts (or clears it when contacts is null).
   * @returns {{ contacts: number, markers: number, normals: number, arrows: number, maxForce: number, capped: number, overflowed: boolean }}
   */
  update(contacts) {
    if (contacts && contacts.contacts && contacts.bodies) contacts = contacts.contacts; // a frame
    const count = contacts ? contacts.count | 0 : 0;
    this._grow(count);
    const { point, normal, force, separation } = contacts ?? {};
    const m = new THREE.Matrix4();
    const q = new THREE.Quaternion();
    const s = new THREE.Vector3();
    const p = new THREE.Vector3();
    const up = new THREE.Vector3(0, 1, 0);
    const dir = new THREE.Vector3();
    const nPos = this.normals.geometry.attributes.position.array;
    const fPos = this.shafts.geometry.attributes.position.array;
    const fCol = this.shafts.geometry.attributes.color.array;
    const invScale = 1 / this.newtonsPerMetre;

    let markers = 0;
    let normals = 0;
    let arrows = 0;
    let maxForce = 0;
    let capped = 0;
    const identity = new THREE.Quaternion();
    const markerScale = new THREE.Vector3(1, 1, 1);
    for (let i = 0; i < count; i++) {
      const o = 3 * i;
      const px = point[o], py = point[o + 1], pz = point[o + 2];
      if (!Number.isFinite(px + py + pz)) continue;
      p.set(px, py, pz);

      m.compose(p, identity, markerScale);
      this.markers.setMatrixAt(markers, m);
      const sep = separation ? separation[i] : 0;
      this.markers.setColorAt(markers, sep > TOUCH_SEPARATION ? COLOR_SPECULATIVE : COLOR_TOUCH);
      markers++;

      if (normal) {
        const k = 6 * normals;
        nPos[k] = px; nPos[k + 1] = py; nPos[k + 2] = pz;
        nPos[k + 3] = px + normal[o] * NORMAL_LENGTH;
        nPos[k + 4] = py + normal[o + 1] * NORMAL_LENGTH;
        nPos[k + 5] = pz + normal[o + 2] * NORMAL_LENGTH;
        normals++;
      }

      if (force) {
        const fx = force[o], fy = force[o + 1], fz = force[o + 2];
        const f = Math.hypot(fx, fy, fz);
        if (Number.isFinite(f)) {
          if (f > maxForce) maxForce = f;
          let len = f * invScale;
          const isCapped = len > MAX_ARROW;
          if (isCapped) {
            len = MAX_ARROW;
            capped++;
          }
          const col = isCapped ? COLOR_CAPPED : COLOR_FORCE;
          if (len >= MIN_ARROW) {
            dir.set(fx / f, fy / f, fz / f);
            const head = Math.min(0.1, 0.35 * len);
            const shaft = len - head;
            const k = 6 * arrows;
            fPos[k] = px; fPos[k + 1] = py; fPos[k + 2] = pz;
            fPos[k + 3] = px + dir.x * shaft;
            fPos[k + 4] = py + dir.y * shaft;
            fPos[k + 5] = pz + dir.z * shaft;
            fCol[k] = fCol[k + 3] = col.r;
            fCol[k + 1] = fCol[k + 4] = col.g;
            fCol[k + 2] = fCol[k + 5] = col.b;
            q.setFromUnitVectors(up, dir);
            const r = Math.min(0.035, head * 0.4);
            s.set(r, head, r);
            p.set(fPos[k + 3], fPos[k + 4], fPos[k + 5]);
            m.compose(p, q, s);
            this.heads.setMatrixAt(arrows, m);
            this.heads.setColorAt(arrows, col);
            arrows++;
          }
        }
      }
    }

    this.markers.count = markers;
    this.markers.instanceMatrix.needsUpdate = true;
    if (this.markers.instanceColor) this.markers.instanceColor.needsUpdate = true;
    this.heads.count = arrows;
    this.heads.instanceMatrix.needsUpdate = true;
    if (this.heads.instanceColor) this.heads.instanceColor.needsUpdate = true;
    this.normals.geometry.setDrawRange(0, 2 * normals);
    this.normals.geometry.attributes.position.needsUpdate = true;
    this.shafts.geometry.setDrawRange(0, 2 * arrows);
    this.shafts.geometry.attributes.position.needsUpdate = true;
    this.shafts.geometry.attributes.color.needsUpdate = true;
    this._applyVisibility();

    this.stats = {
      contacts: count,
      markers: this.showPoints ? markers : 0,
      normals: this.showNormals ? normals : 0,
      arrows: this.showForces ? arrows : 0,
      maxForce,
      capped,
      overflowed: !!(contacts && contacts.overflowed),
    };
    return this.stats;
  }

  dispose() {
    this.scene.remove(this.group);
    this.markers.dispose();
    this.heads.dispose();
    this.normals.geometry.dispose();
    this.shafts.geometry.dispose();
    this.markerGeometry.dispose();
    this.headGeometry.dispose();
    for (const mat of [this.markerMaterial, this.headMaterial, this.normalMaterial, this.shaftMaterial]) mat.dispose();
  }
}
