// tribo/element: the <tribo-scene> custom element (defined on import).
import type { WorkerWorld, Frame, BodyDesc, WorldOptions } from './index.js';

/** An inline `<script type="application/json">` scene: the same descriptors as the JS API. */
export interface SceneDescription {
  /** World options (preset, gravity m/s², timestep s, …). */
  world?: WorldOptions;
  /** Bodies in order, as passed to World.addBody. */
  bodies: BodyDesc[];
  /** Indices into `bodies` whose net contact force magnitude (N) is plotted against time. */
  plot?: number[];
}

/** Built-in scenes of the `scene` attribute. */
export declare const SCENES: Readonly<Record<'sphere' | 'stack' | 'pile', SceneDescription>>;

export declare class TriboScene extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Engine loads (wasm compilations) of the page's elements so far: one for any number. */
  static engineLoads: number;
  /** The shadow-DOM canvas. */
  readonly canvas: HTMLCanvasElement;
  /** The element's worker world (null before it starts and after removal). */
  readonly world: WorkerWorld | null;
  /** The last frame drawn. */
  readonly frame: Frame | null;
  /** What the last draw showed: contacts in the frame, contact markers and force arrows drawn. */
  readonly stats: { contacts: number; markers: number; arrows: number };
  /** Resolves with the element once its world runs. */
  readonly ready: Promise<TriboScene>;
  /** After removal: resolves with the worker engine's live bytes once the world is freed. */
  readonly freed: Promise<number> | null;
  /** The scene description in use (inline JSON, else the `scene` attribute's). */
  description(): SceneDescription;
}

declare global {
  interface HTMLElementTagNameMap { 'tribo-scene': TriboScene }
}
