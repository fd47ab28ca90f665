/* Step events: x' = 1, and after every completed integrator step that ends with x >= 1 the
 * FMU asks for an event (completedIntegratorStep's enterEventMode) in which x := x - 1. So
 * x(t) = t - (number of resets) exactly, whatever the steps, and `resets` counts them. */
#include "../model.h"

enum { TIME, X, DER_X, RESETS, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [X] = {"x", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "the saw"},
    [DER_X] = {"der(x)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X, ""},
    [RESETS] = {"resets", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 0, 0.0, -1,
                "step events so far"},
};
static const int states[] = {X};
static const int derivatives[] = {DER_X};

static int evaluate(Model* m) {
  m->v[DER_X] = 1.0;
  m->v[RESETS] = (double)m->count;
  return 0;
}

static int step_completed(Model* m) {
  return m->v[X] >= 1.0;
}

static void event_update(Model* m) {
  while (m->v[X] >= 1.0) {
    m->v[X] -= 1.0;
    ++m->count;
  }
  evaluate(m);
}

const ModelDefinition model_definition = {
    .identifier = "Sawtooth",
    .description = "step events from completedIntegratorStep",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f002}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 1,
    .needs_completed_integrator_step = 1,
    .start_time = 0.0,
    .stop_time = 3.5,
    .tolerance = 1e-6,
    .step_size = 0.01,
    .cosim_step = 1e-2,
    .evaluate = evaluate,
    .event_update = event_update,
    .step_completed = step_completed,
};
