/**
 * Ranges of the numbers whose float32 mass properties the engine can hold: inside them a body's
 * mass, inertia (kg·m², up to about density × length⁵) and their inverses stay normal, finite
 * float32 numbers. Checked before the engine is called; README "Bad input" lists them.
 * @module tribo/limits
 */

export const LIMITS = Object.freeze({
  /** m: shape sizes (radius, halfHeight, halfExtents, radii) and hull point coordinates. */
  length: Object.freeze({ min: 1e-6, max: 1e6 }),
  /** m: largest |coordinate| of a body position on each axis (addBody, setPose; C TB_MAX_COORDINATE). */
  position: 1e6,
  /** m/s: largest |component| of a body's linear velocity (addBody, setVelocity; C TB_MAX_SPEED). */
  speed: 1e6,
  /** rad/s: largest |component| of a body's angular velocity (addBody, setVelocity; C TB_MAX_ANGULAR_SPEED). */
  angularSpeed: 1e6,
  /** kg/m³: shape density. */
  density: Object.freeze({ min: 1e-6, max: 1e6 }),
  /** kg: a body's mass (setMass, addBody mass, and the mass its shapes give). */
  mass: Object.freeze({ min: 1e-30, max: 1e30 }),
  /** kg·m²: principal moments (setMass, and the inertia its shapes give). */
  inertia: Object.freeze({ min: 1e-30, max: 1e30 }),
  /** m/s²: largest |component| of the world's gravity (createWorld, setGravity; C TB_MAX_GRAVITY). */
  gravity: 1e6,
  /** 1/s: largest body damping (addBody linearDamping, angularDamping; C TB_MAX_DAMPING). */
  damping: 1e6,
  /** s: a world's timestep (createWorld, setTimestep; C TB_MIN_TIMESTEP, TB_MAX_TIMESTEP): well inside
   * the range where one step's h², 1/h² and g·h² stay normal float32 numbers (1e-40 s made XPBD's
   * step non-finite). */
  timestep: Object.freeze({ min: 1e-12, max: 1e12 }),
  /** Most results one query returns (rayCastAll, overlap capacity): bounds its scratch memory. */
  queryCapacity: 1 << 16,
});
