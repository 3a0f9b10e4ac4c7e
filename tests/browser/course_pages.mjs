// The course pages under test and each one's physical check of its headline numbers.
import assert from 'node:assert/strict';
import { closedForm as inclineA } from '../../web/pages/incline.js';

export const PAGES = [
  {
    id: 'incline', steps: 72,
    moves: { theta: 10 },
    /* PhysX and XPBD on a sliding box (θ 30°, μ 0.3): a = g(sin θ − μ cos θ) within 1 % */
    physics(head, p, label) {
      const a = inclineA(p.theta, p.mu);
      for (const preset of ['physx-pgs', 'physx-tgs', 'newton-xpbd']) {
        assert.ok(Math.abs(head[preset] - a) <= 0.01 * a, `${label}/${preset}: a ${head[preset]} vs g(sinθ−μcosθ) ${a}`);
      }
    },
  },
];
