/**
 * The demos of the gallery (demos/index.html), in course order. `page` names demos/<page>.html;
 * `arrives` says what a concept waits for when its page would need an engine feature not in this
 * version (its card says so instead of linking a page that could only pretend).
 * @module tribo/web/catalogue
 */
export const DEMOS = [
  { page: 'pyramid', title: 'Box pyramid: contacts and forces', text: 'A pyramid of boxes with drops, contact points, normals and force arrows in 3D; pick a body to plot its contact force over time.' },
  { page: 'presets', title: 'One scene, four presets', text: 'The same scene under PhysX PGS/TGS, Newton XPBD and penalty, with what each engine\'s reported force contains.' },
  { n: 1, page: 'pipeline', title: 'Collision pipeline', text: 'AABBs, sweep-and-prune pairs and narrow-phase contacts, stage by stage, with counts and the overflow flag.' },
  { n: 2, page: 'distance', title: 'GJK, EPA and MPR', text: 'Distance and closest points when apart, depth and normal when overlapping; the support field of a hull.' },
  { n: 3, page: 'manifolds', title: 'Multi-point manifolds', text: 'A box and a hull on a plane and a mesh: clipping, pose perturbation, maxPointsPerPair and reduction.' },
  { n: 4, page: 'filtering', title: 'Filtering rules', text: 'Newton groups, MuJoCo contype/conaffinity, PhysX filter flags and triggers, Genesis adjacency as a truth table.' },
  { n: 5, page: 'margins', title: 'Margins, gaps and offsets', text: 'A sphere lowered onto a plane: the distance each rule reports, when a contact is detected, active, excluded.' },
  { n: 6, page: 'combine', title: 'Material combine rules', text: 'Two materials, each engine\'s rule: the combined μ and the sliding distance that results.' },
  { n: 7, page: 'incline', title: 'Stick and slip', text: 'A box on an incline: measured acceleration against g(sin θ − μ cos θ), and each preset\'s creep.' },
  { n: 8, page: 'bounce', title: 'Restitution and the bounce threshold', text: 'Drops at several speeds: rebound against e·v, the threshold below which nothing bounces.' },
  { n: 9, page: 'iterations', title: 'PGS vs TGS and iterations', text: 'A stack with iteration and substep sliders: the sum of ground forces against m·g, the top box\'s sag.' },
  { n: 10, page: 'relaxation', title: 'XPBD relaxation and count weighting', text: 'A resting stack: per-contact readback against the static answer; p = ω(−d)/(h·w).' },
  { n: 11, page: 'penalty', title: 'Penalty contact', text: 'ke, kd sliders: penetration against m·g/ke, and the explicit step\'s stability limit.' },
  { n: 12, title: 'Soft constraints (MuJoCo)', text: 'solref / solimp, penetration and force over time, pyramidal vs elliptic cones, condim.', arrives: 'arrives with the mujoco preset' },
  { n: 13, page: 'observation', title: 'Force observation', text: 'Impulse vs average force over substeps, wrenches moved to a point, reactions, sensors and events.' },
  { n: 14, title: 'Islands and sleeping', text: 'Islands coloured, a body waking its island.', arrives: 'arrives with islands and automatic sleeping' },
];
