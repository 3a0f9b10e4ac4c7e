/* The 1-D model of a PhysX TGS compliant contact (tests only): one body of mass m (kg) on a static
 * ground, a spring of stiffness k and damping d (N/m, N·s/m; 1/s², 1/s for an acceleration
 * spring), step h, N internal steps hi = h/N, gravity g (m/s², down) added to the velocity once
 * at the start of the step, as the physx-tgs preset does. Each internal step solves the implicit
 * row of tb_compliant_coefficients from the separation s and velocity v it has reached:
 *   a = hi(d + hi·k), x = 1/(1 + a·w) (force) or 1/(1 + a) (acceleration), w = 1/m,
 *   Δp = x·a·(−k·s/(d + hi·k) − v) · (m for an acceleration spring),  v += w·Δp,  s += hi·v.
 * Returns the separation (m, < 0) at the start of a step in the periodic steady state: within a
 * step the body first sinks under the step's gravity impulse and comes back, so the spring's
 * static balance holds for the mean over the internal steps, not for the separation at the step's
 * start, which is shallower than the static deflection −m·g/k by about h·g·hi·(N − 1)/2·… (the
 * mean of the internal dip). With gravity per internal step the dip vanishes. */
#ifndef TB_TEST_COMPLIANT_MODEL_H
#define TB_TEST_COMPLIANT_MODEL_H

static double tb_test_tgs_spring_rest(double g, double h, int n, double k, double d, double m, int accel) {
  double hi = h / n, w = 1.0 / m, a = hi * (d + hi * k);
  double x = accel ? 1.0 / (1.0 + a) : 1.0 / (1.0 + a * w);
  double mul = accel ? x * a * m : x * a;
  double s = accel ? -g / k : -m * g / k, v = 0.0;
  for (int step = 0; step < 20000; ++step) {
    v -= g * h;
    for (int i = 0; i < n; ++i) {
      v += w * mul * (-k * s / (d + hi * k) - v);
      s += hi * v;
    }
  }
  return s;
}

#endif
