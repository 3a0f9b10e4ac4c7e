/**
 * The demos of the gallery (demos/index.html), in course order. `page` names demos/<page>.html;
 * `arrives` says what a concept waits for when its page would need an engine feature not in this
 * version (its card says so instead of linking a page that could only pretend).
 * @module tribo/web/catalogue
 */
export const DEMOS = [
  { page: 'pyramid', title: 'Box pyramid: contacts and forces', text: 'A pyramid of boxes with drops, contact points, normals and force arrows in 3D; pick a body to plot its contact force over time.' },
  { page: 'embed', title: 'Embedding a scene: &lt;tribo-scene&gt;', text: 'Scenes on a documentation page with one tag each: built-in scenes, an inline scene in the JS API\'s descriptors, camera, preset and a force plot as attributes.' },
  { page: 'presets', title: 'One scene, four presets', text: 'The same scene under PhysX PGS/TGS, Newton XPBD and penalty, with what each engine\'s reported force contains; a pendulum and a hinged chain with each preset\'s joint reaction against m·g + m·v²/L.' },
  { n: 1, page: 'pipeline', title: 'Collision pipeline', text: 'A pile forming: bounding boxes, candidate pairs, contacts found and stored per preset; the overflow flag when the store\'s capacity is lowered.' },
  { n: 2, page: 'distance', title: 'GJK, EPA and MPR', text: 'Two convex pairs, B dragged or placed by sliders: signed distance and closest points when apart, depth and normal when overlapping, which of GJK, MPR, EPA answered; a hull\'s support field against the exact scan.' },
  { n: 3, page: 'manifolds', title: 'Multi-point manifolds', text: 'A box and an octagonal hull on a plane and on a mesh: the points kept against maxPointsPerPair, and the reduced flag.' },
  { n: 4, page: 'filtering', title: 'Filtering rules', text: 'Balls A and B on a table under the Newton, MuJoCo, PhysX and Genesis rules: an editable truth table of their filter fields drives the scene; each rule\'s formula against what happened.' },
  { n: 5, page: 'margins', title: 'Margins, gaps and offsets', text: 'A sphere dropped under each distance rule: where its contact is detected, becomes active, and where the sphere rests.' },
  { n: 6, page: 'combine', title: 'Material combine rules', text: 'A box launched on the ground: the μ each engine\'s rule makes of two materials and the distance slid; the combined restitution, damping and solref under each rule.' },
  { n: 7, page: 'incline', title: 'Stick and slip', text: 'A box on an incline: measured acceleration against g(sin θ − μ cos θ), and each preset\'s creep.' },
  { n: 8, page: 'bounce', title: 'Restitution and the bounce threshold', text: 'Drops at seven speeds: v_out / v_in against e above the threshold, and what each readback carries.' },
  { n: 9, page: 'iterations', title: 'PGS vs TGS and iterations', text: 'A stack with iteration, box and step-rate sliders: the ground force against n·m·g, the top box\'s sag.' },
  { n: 10, page: 'relaxation', title: 'XPBD relaxation and count weighting', text: 'A resting stack: ground-contact readback against n·m·g with and without count weighting; p = ω(−d)/(h·w).' },
  { n: 11, page: 'penalty', title: 'Penalty contact', text: 'A sphere resting on springs: penetration against m·g/ke, the damping ratio, the explicit step\'s stability limit; Huber friction regimes and the refusal of an unstable kf.' },
  { n: 12, page: 'soft', title: 'Soft constraints (MuJoCo)', text: 'solref / solimp sliders: a sphere\'s penetration and force over time against the soft-constraint equation; a box on a slope under the pyramidal and elliptic cones, condim 1/3/4/6.' },
  { n: 13, page: 'observation', title: 'Force observation', text: 'Impulse against average force as h changes, a body\'s net contact wrench, the reaction about the other body\'s centre; contact events and a contact sensor plot.' },
  { n: 14, page: 'sleeping', title: 'Islands and sleeping', text: 'Stacks of boxes settling, coloured by island, hatched asleep under the Genesis and PhysX rules; a sphere dropped on one stack wakes exactly its island.' },
];
