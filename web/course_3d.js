/**
 * The 3D view of the course lanes, next to each lane's side view: three.js with tribo/three's
 * ContactOverlay. One WebGL renderer serves every lane of a page (each frame is copied into the
 * lane's own canvas), so a page of seven lanes holds one WebGL context; every lane shares one
 * camera (orbit any of them). Bodies are drawn from the scene's shape descriptors at the poses of
 * the world's body views (`world.bodies.transform`: position m, quaternion x y z w, world);
 * contact points, normals and the reported force on body1 (N, drawn at `newtonsPerMeter` N per m)
 * by the overlay. Nothing renders between draws: a lane renders when the course redraws it or the
 * camera moves.
 * @module tribo/web/course_3d
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';
import { ContactOverlay } from '../js/three.js';

const BACKGROUND = 0x0b0e12;
const BODY_COLOR = 0xc8a46e;
const PLANE_COLOR = 0x39414f;
const FOV = 40; /* degrees, vertical */

/** [x, y, z] triples of a hull's points given flat or nested. */
const triples = (pts) => (typeof pts[0] === 'number' ? Array.from({ length: pts.length / 3 }, (_, i) => pts.slice(3 * i, 3 * i + 3)) : pts);

/**
 * The camera of a page: eye and target (m, world) from the URL (`camera=x,y,z` or
 * `camera=x,y,z,tx,ty,tz`), else looking at the side view's centre from the front right and above,
 * far enough to see `metersAcross` across a view of aspect `aspect`.
 * @param {string|null} param the URL's camera value
 * @param {{ center: number[], metersAcross: number }} side the side view's camera
 * @returns {{ eye: number[], target: number[] }}
 */
export function cameraFrom(param, side, aspect = 360 / 220) {
  const v = (param ?? '').split(',').map(Number);
  const target = [side.center[0], side.center[1], 0];
  if ((v.length === 3 || v.length === 6) && v.every(Number.isFinite)) return { eye: v.slice(0, 3), target: v.length === 6 ? v.slice(3) : target };
  const dist = (0.6 * side.metersAcross) / (Math.tan(((FOV / 2) * Math.PI) / 180) * aspect);
  const dir = [0.45, 0.35, 1], n = Math.hypot(...dir);
  return { eye: target.map((t, i) => +(t + (dist * dir[i]) / n).toFixed(3)), target };
}

/** The page's shared renderer and camera; lane views come from lane(). */
export class Course3D {
  /**
   * @param {{ eye: number[], target: number[] }} camera
   * @param {{ width?: number, height?: number }} [size] pixels of every lane canvas
   */
  constructor(camera, { width = 360, height = 220 } = {}) {
    this.width = width;
    this.height = height;
    this.renderer = new THREE.WebGLRenderer({ canvas: document.createElement('canvas'), antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(width, height, false);
    this.renderer.setClearColor(BACKGROUND, 1);
    this.camera = new THREE.PerspectiveCamera(FOV, width / height, 0.01, 200);
    this.camera.position.set(...camera.eye);
    this.target = new THREE.Vector3(...camera.target);
    this.camera.lookAt(this.target);
    this.lanes = new Set();
    this.geometries = new Map();
    /** Lane frames rendered so far (tests: rendering happens on demand). */
    this.renders = 0;
  }

  /** The camera now: eye and target (m, world). */
  get cameraState() {
    const r = (v) => [v.x, v.y, v.z].map((x) => +x.toFixed(3));
    return { eye: r(this.camera.position), target: r(this.target) };
  }

  /** A shared geometry by key (shapes of equal size share one). */
  geometry(key, make) {
    if (!this.geometries.has(key)) this.geometries.set(key, make());
    return this.geometries.get(key);
  }

  /**
   * A lane's 3D view on `canvas` (a 2D canvas of the renderer's size).
   * @param {HTMLCanvasElement} canvas
   * @param {object} scene the page's scene ({ bodies: [{ id, shape }], planes, style? })
   * @param {{ newtonsPerMeter?: number, span?: number }} [opts] force scale (N per m), plane size (m)
   */
  lane(canvas, scene, opts = {}) {
    const view = new LaneView3D(this, canvas, scene, opts);
    this.lanes.add(view);
    return view;
  }

  /** Renders every lane again at its last state (after the camera moved). */
  redrawAll() { for (const l of this.lanes) l.render(); }
}

class LaneView3D {
  constructor(course, canvas, scene, { newtonsPerMeter = 40, span = 3 } = {}) {
    this.course = course;
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.scene = scene;
    this.world = null;
    const s = (this.three = new THREE.Scene());
    s.add(new THREE.HemisphereLight(0xdde6ff, 0x2a2620, 1.4));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(3, 8, 5);
    s.add(sun);
    this.materials = [];
    for (const pl of scene.planes ?? []) {
      const size = 4 * span;
      const mesh = new THREE.Mesh(course.geometry(`plane:${size}`, () => new THREE.PlaneGeometry(size, size)), this.material(PLANE_COLOR, { side: THREE.DoubleSide }));
      const n = new THREE.Vector3(...pl.normal).normalize();
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      mesh.position.copy(n).multiplyScalar(pl.offset);
      const grid = new THREE.GridHelper(size, 4 * Math.round(size), 0x566070, 0x465060);
      grid.rotation.x = Math.PI / 2; /* the helper lies in x–z; the plane mesh in x–y before its turn */
      grid.position.z = 0.001;
      (this.own ??= []).push(grid.geometry);
      this.materials.push(grid.material);
      mesh.add(grid);
      s.add(mesh);
    }
    this.bodies = (scene.bodies ?? []).map(({ id, shape }) => {
      const mat = this.material(BODY_COLOR);
      const obj = this.shapeObject(shape, mat);
      s.add(obj);
      return { id, obj, mat };
    });
    this.overlay = new ContactOverlay(s, { newtonsPerMetre: newtonsPerMeter });
    this.controls = new OrbitControls(course.camera, canvas);
    this.controls.target = course.target; /* one target for every lane */
    this.controls.addEventListener('change', () => course.redrawAll());
  }

  material(color, extra = {}) {
    const m = new THREE.MeshLambertMaterial({ color, ...extra });
    this.materials.push(m);
    return m;
  }

  /** A three.js object of one shape descriptor, in the body frame. */
  shapeObject(shape, mat) {
    const g = (key, make) => this.course.geometry(key, make);
    switch (shape.type) {
      case 'sphere': return new THREE.Mesh(g(`sphere:${shape.radius}`, () => new THREE.SphereGeometry(shape.radius, 24, 16)), mat);
      case 'ellipsoid': {
        const m = new THREE.Mesh(g('sphere:1', () => new THREE.SphereGeometry(1, 24, 16)), mat);
        m.scale.set(...shape.radii);
        return m;
      }
      case 'box': {
        const [x, y, z] = shape.halfExtents;
        const m = new THREE.Mesh(g(`box:${x},${y},${z}`, () => new THREE.BoxGeometry(2 * x, 2 * y, 2 * z)), mat);
        m.add(new THREE.LineSegments(g(`edges:${x},${y},${z}`, () => new THREE.EdgesGeometry(new THREE.BoxGeometry(2 * x, 2 * y, 2 * z))), this.edgeMaterial()));
        return m;
      }
      case 'capsule': {
        const r = shape.radius, h = shape.halfHeight;
        const m = new THREE.Mesh(g(`capsule:${r},${h}`, () => new THREE.CapsuleGeometry(r, 2 * h, 6, 16)), mat);
        return m;
      }
      case 'hull': {
        const pts = triples(shape.points).map((p) => new THREE.Vector3(...p));
        const geom = new ConvexGeometry(pts); /* owned by this lane: hulls differ per page */
        (this.own ??= []).push(geom);
        const edges = new THREE.EdgesGeometry(geom, 20);
        this.own.push(edges);
        const m = new THREE.Mesh(geom, mat);
        m.add(new THREE.LineSegments(edges, this.edgeMaterial()));
        return m;
      }
      default: return new THREE.Group();
    }
  }

  edgeMaterial() {
    this.edges ??= (() => { const m = new THREE.LineBasicMaterial({ color: 0x3b2f1e }); this.materials.push(m); return m; })();
    return this.edges;
  }

  /**
   * Poses, colours and contacts of `world` now, then renders.
   * @param {import('../js/index.js').World} world
   */
  draw(world) {
    this.world = world;
    const T = world.bodies.transform;
    for (const b of this.bodies) {
      const o = 7 * world.bodySlot(b.id);
      b.obj.position.set(T[o], T[o + 1], T[o + 2]);
      b.obj.quaternion.set(T[o + 3], T[o + 4], T[o + 5], T[o + 6]);
      /* scene.style(id) -> { color, asleep }: the page's colour, an asleep body dim */
      const st = this.scene.style?.(b.id);
      if (st) {
        b.mat.color.set(st.color);
        b.mat.transparent = st.asleep;
        b.mat.opacity = st.asleep ? 0.45 : 1;
      }
    }
    const c = world.contacts;
    /* forces only where the preset reports them for a solve that ran (never a stale or zero arrow) */
    const forces = !this.scene.closestPoints && c.readbackValid && !!world.readbackInfo.perContactForce;
    this.overlay.setVisibility({ forces });
    this.overlay.update(c);
    this.render();
  }

  /** Renders the lane's scene with the shared camera and copies it into the lane's canvas. */
  render() {
    if (!this.world) return;
    const { course } = this;
    course.renderer.render(this.three, course.camera);
    this.ctx.drawImage(course.renderer.domElement, 0, 0, this.canvas.width, this.canvas.height);
    course.renders++;
  }

  /** Frees the lane's GPU resources and controls (the shared renderer stays). */
  dispose() {
    this.controls.dispose();
    this.overlay.dispose();
    for (const m of this.materials) m.dispose();
    for (const g of this.own ?? []) g.dispose();
    this.course.lanes.delete(this);
    this.world = null;
  }
}
