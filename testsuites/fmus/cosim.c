/* The co-simulation side of the test FMUs: the model integrates itself over a communication
 * step with the classical Runge-Kutta method and a fixed internal step (cosim_step, shortened
 * to land on time events and on the step's end). A sign change of an event indicator over an
 * internal step is located by bisection of the step length to 1e-13 s, the step is redone to
 * just past the crossing, and the event is handled there, as model exchange would. */
#include "model.h"

#include <math.h>

#define MAX_INDICATORS 8

static int rk4(Model* m, const double* x0, double t0, double h, double* x1) {
  const int n = model_definition.n_states;
  const int* s = model_definition.states;
  const int* d = model_definition.derivatives;
  double k[4][MODEL_MAX_VARIABLES];
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int stage = 0; stage < 4; ++stage) {
    m->v[0] = t0 + c[stage] * h;
    for (int i = 0; i < n; ++i) {
      m->v[s[i]] = x0[i] + (stage == 0 ? 0.0 : c[stage] * h * k[stage - 1][i]);
    }
    if (model_definition.evaluate(m) != 0) return 1;
    for (int i = 0; i < n; ++i) k[stage][i] = m->v[d[i]];
  }
  for (int i = 0; i < n; ++i) {
    x1[i] = x0[i] + h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
    m->v[s[i]] = x1[i];
  }
  m->v[0] = t0 + h;
  return model_definition.evaluate(m);
}

static int sign_of(double z) {
  return (z > 0.0) - (z < 0.0);
}

/* Indicators at the model's current time and states. */
static void indicators(Model* m, double* z) {
  if (model_definition.n_event_indicators > 0) model_definition.event_indicators(m, z);
}

static int crossed(const double* za, const double* zb) {
  for (int i = 0; i < model_definition.n_event_indicators; ++i) {
    if (za[i] != 0.0 && sign_of(za[i]) != sign_of(zb[i])) return 1;
  }
  return 0;
}

int model_do_step(Model* m, double t, double h) {
  const int n = model_definition.n_states;
  const double end = t + h;
  double x0[MODEL_MAX_VARIABLES], x1[MODEL_MAX_VARIABLES];
  double za[MAX_INDICATORS], zb[MAX_INDICATORS];
  m->v[0] = t;
  if (model_definition.evaluate(m) != 0) return 1;
  while (m->v[0] < end) {
    const double now = m->v[0];
    for (int i = 0; i < n; ++i) x0[i] = m->v[model_definition.states[i]];
    indicators(m, za);
    double dt = model_definition.cosim_step;
    int last = 0;
    if (now + dt > end - 1e-12 * fabs(end)) {
      dt = end - now;
      last = 1;
    }
    const int time_event = now + dt >= m->next_event_time;
    if (time_event) {
      dt = m->next_event_time - now;
      last = 0;
    }
    if (rk4(m, x0, now, dt, x1) != 0) return 1;
    indicators(m, zb);
    int state_event = crossed(za, zb);
    if (state_event) {
      double lo = 0.0, hi = dt;
      while (hi - lo > 1e-13) {
        const double mid = 0.5 * (lo + hi);
        if (rk4(m, x0, now, mid, x1) != 0) return 1;
        indicators(m, zb);
        if (crossed(za, zb))
          hi = mid;
        else
          lo = mid;
      }
      if (rk4(m, x0, now, hi, x1) != 0) return 1;
    }
    if (time_event && !state_event) m->v[0] = m->next_event_time; /* exactly on it */
    if (last && !state_event) m->v[0] = end;
    const int step_event =
        model_definition.step_completed != NULL && model_definition.step_completed(m);
    if (time_event || state_event || step_event) {
      model_event(m);
      if (m->terminate) return 2;
      if (model_definition.evaluate(m) != 0) return 1;
    }
  }
  m->v[0] = end;
  return 0;
}
