// tribo/three: contact overlay for three.js scenes.
import type { ContactViews, Frame } from './index.js';

/** Longest force arrow drawn, m (longer ones are capped and drawn in magenta). */
export declare const MAX_ARROW: number;

/** What the overlay needs of a three.js Scene (any THREE.Scene or Object3D). */
export interface SceneLike { add(object: object): unknown; remove(object: object): unknown }

export interface ContactOverlayStats {
  contacts: number; markers: number; normals: number; arrows: number;
  /** Largest contact force magnitude, N. */
  maxForce: number; capped: number; overflowed: boolean;
}

export declare class ContactOverlay {
  /** Adds the overlay's group to `scene`. newtonsPerMetre: force arrow scale, N per m (default 500). */
  constructor(scene: SceneLike, options?: { newtonsPerMetre?: number });
  /** Force arrow scale, N per m of arrow. */
  newtonsPerMetre: number;
  setVisibility(show: { points?: boolean; normals?: boolean; forces?: boolean }): void;
  /** Redraws from a World's contact views or a WorkerWorld frame (null clears). */
  update(contacts: ContactViews | Frame | null): ContactOverlayStats;
  /** Removes the overlay from the scene and frees its GPU resources. */
  dispose(): void;
}
