/* A stair of time events: the level rises by `height` at every multiple of `period`, and x
 * integrates it (x' = level), so x(t) = height period k (k - 1) / 2 + height k (t - k period)
 * with k = floor(t / period). After `steps` steps the model ends the simulation
 * (terminateSimulation at that time event). No continuous-time events: only time events. */
#include "../model.h"

#include <math.h>

enum { TIME, X, DER_X, LEVEL, PERIOD, HEIGHT, STEPS, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [X] = {"x", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "integral of the level"},
    [DER_X] = {"der(x)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X, ""},
    [LEVEL] = {"level", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "the stair"},
    [PERIOD] = {"period", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 0.3, -1, "time per step"},
    [HEIGHT] = {"height", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 1.0, -1, "height per step"},
    [STEPS] = {"steps", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 1000.0, -1,
               "steps after which the simulation ends"},
};
static const int states[] = {X};
static const int derivatives[] = {DER_X};

static int evaluate(Model* m) {
  m->v[LEVEL] = m->v[HEIGHT] * (double)m->count;
  m->v[DER_X] = m->v[LEVEL];
  return 0;
}

/* Due now: every step whose time has come (a time within 1e-9 periods counts as come). */
static void event_update(Model* m) {
  const double period = m->v[PERIOD];
  while ((double)(m->count + 1) * period <= m->v[TIME] + 1e-9 * period) ++m->count;
  m->next_event_time = (double)(m->count + 1) * period;
  if ((double)m->count >= m->v[STEPS]) m->terminate = 1;
  evaluate(m);
}

const ModelDefinition model_definition = {
    .identifier = "Stair",
    .description = "a stair of time events",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f001}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 1,
    .start_time = 0.0,
    .stop_time = 2.0,
    .tolerance = 1e-6,
    .step_size = 0.1,
    .cosim_step = 1e-2,
    .evaluate = evaluate,
    .event_update = event_update,
};
