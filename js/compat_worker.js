/** The worker of tribo/compat: worker_host.js, inlined into dist/tribo_compat.mjs as a script. */
import './worker_host.js';
