// three.js scene for the Tribo demo, built from shape descriptions (the same objects given to
// sim.addBody()) and updated from the frame's body transforms (7 floats per body slot:
// px, py, pz, qx, qy, qz, qw; slot = id & the engine's idIndexMask).

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { knownConstants } from '../js/fields.js';

export const BACKGROUND = 0x1b1f27;

const TAG_COLORS = {
  ground: 0x3a4150,
  box: 0xc8a46e,
  sphere: 0x5fa8d3,
  capsule: 0x8fc07a,
  other: 0xb0b0b0,
};

function quatFromTo(from, to) {
  return new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(...from).normalize(), new THREE.Vector3(...to).normalize());
}

export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   */
  constructor(canvas) {
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(BACKGROUND, 1);
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.fog = new THREE.Fog(BACKGROUND, 25, 70);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
    this.camera.position.set(5.2, 3.6, 6.8);

    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(0, 1.3, 0);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.update();

    const hemi = new THREE.HemisphereLight(0xdde6ff, 0x2a2620, 1.1);
    this.scene.add(hemi);
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(5, 10, 6);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const sc = sun.shadow.camera;
    sc.left = -6; sc.right = 6; sc.top = 6; sc.bottom = -6; sc.near = 1; sc.far = 30;
    sun.shadow.bias = -0.0005;
    this.scene.add(sun);

    this.bodyRoot = new THREE.Group();
    this.scene.add(this.bodyRoot);
    /** @type {Map<number, { id: number, slot: number, object: THREE.Object3D, dynamic: boolean }>} */
    this.bodies = new Map();
    this._geometries = new Map(); // shared geometry cache by key
    this._materials = new Map();

    this._onResize = () => this.resize();
    window.addEventListener('resize', this._onResize);
    this.resize();
  }

  resize() {
    const w = this.canvas.clientWidth || window.innerWidth;
    const h = this.canvas.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / Math.max(h, 1);
    this.camera.updateProjectionMatrix();
  }

  _material(tag) {
    let m = this._materials.get(tag);
    if (!m) {
      m = new THREE.MeshStandardMaterial({ color: TAG_COLORS[tag] ?? TAG_COLORS.other, roughness: 0.75, metalness: 0.05 });
      this._materials.set(tag, m);
    }
    return m;
  }

  _geometry(key, make) {
    let g = this._geometries.get(key);
    if (!g) {
      g = make();
      this._geometries.set(key, g);
    }
    return g;
  }

  /** three.js object for one shape description, in the body frame. */
  _shapeObject(shape, tag) {
    const mat = this._material(tag);
    let obj;
    switch (shape.type) {
      case 'box': {
        const [x, y, z] = shape.halfExtents;
        obj = new THREE.Mesh(this._geometry(`box:${x},${y},${z}`, () => new THREE.BoxGeometry(2 * x, 2 * y, 2 * z)), mat);
        // thin dark edges so stacked boxes read as separate bodies
        this._edgeMaterial ??= new THREE.LineBasicMaterial({ color: 0x3b2f1e });
        const edges = new THREE.LineSegments(
          this._geometry(`boxedges:${x},${y},${z}`, () => new THREE.EdgesGeometry(new THREE.BoxGeometry(2 * x, 2 * y, 2 * z))),
          this._edgeMaterial,
        );
        obj.add(edges);
        break;
      }
      case 'sphere': {
        const r = shape.radius;
        obj = new THREE.Mesh(this._geometry(`sphere:${r}`, () => new THREE.SphereGeometry(r, 24, 16)), mat);
        break;
      }
      case 'capsule': {
        const r = shape.radius;
        const hh = shape.halfHeight;
        // CapsuleGeometry's axis is local y, like tribo's capsule; length = segment length
        obj = new THREE.Mesh(this._geometry(`capsule:${r},${hh}`, () => new THREE.CapsuleGeometry(r, 2 * hh, 8, 20)), mat);
        break;
      }
      case 'plane': {
        const n = shape.normal ?? [0, 1, 0];
        const d = shape.offset ?? 0;
        obj = new THREE.Group();
        const size = 200;
        const plane = new THREE.Mesh(this._geometry('plane', () => new THREE.PlaneGeometry(size, size)), mat);
        plane.receiveShadow = true;
        plane.castShadow = false;
        // PlaneGeometry faces +z; turn +z onto the plane normal
        plane.quaternion.copy(quatFromTo([0, 0, 1], n));
        obj.add(plane);
        const grid = new THREE.GridHelper(60, 60, 0x56607a, 0x474f61);
        grid.quaternion.copy(quatFromTo([0, 1, 0], n));
        grid.position.set(n[0] * 0.002, n[1] * 0.002, n[2] * 0.002);
        obj.add(grid);
        obj.position.set(n[0] * d, n[1] * d, n[2] * d);
        return obj;
      }
      default:
        console.warn(`renderer: unknown shape type ${shape.type}`);
        return new THREE.Group();
    }
    obj.castShadow = true;
    obj.receiveShadow = true;
    if (shape.position) obj.position.set(...shape.position);
    if (shape.rotation) obj.quaternion.set(...shape.rotation);
    return obj;
  }

  /**
   * Adds a body's meshes.
   * @param {number} id body id returned by sim.addBody() (of a world already created, so the
   *   engine's id layout is known here)
   * @param {object} def the definition given to sim.addBody()
   * @param {string} [tag] colour class: 'ground' | 'box' | 'sphere' | 'capsule'
   */
  addBody(id, def, tag = 'other') {
    const group = new THREE.Group();
    for (const shape of def.shapes ?? []) group.add(this._shapeObject(shape, tag));
    if (def.position) group.position.set(...def.position);
    if (def.rotation) group.quaternion.set(...def.rotation);
    this.bodyRoot.add(group);
    this.bodies.set(id, { id, slot: id & knownConstants().idIndexMask, object: group, dynamic: def.type !== 'static' });
  }

  clearBodies() {
    for (const b of this.bodies.values()) this.bodyRoot.remove(b.object);
    this.bodies.clear();
  }

  /** Poses every body from a transform array (7 floats per slot). */
  updateTransforms(transform) {
    if (!transform) return;
    for (const b of this.bodies.values()) {
      const o = b.slot * 7;
      if (o + 6 >= transform.length) continue;
      b.object.position.set(transform[o], transform[o + 1], transform[o + 2]);
      b.object.quaternion.set(transform[o + 3], transform[o + 4], transform[o + 5], transform[o + 6]);
    }
  }

  render() {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }

  dispose() {
    window.removeEventListener('resize', this._onResize);
    this.controls.dispose();
    for (const g of this._geometries.values()) g.dispose();
    for (const m of this._materials.values()) m.dispose();
    this._edgeMaterial?.dispose();
    this.renderer.dispose();
  }
}
