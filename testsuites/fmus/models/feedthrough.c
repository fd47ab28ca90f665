/* Three inputs straight through: sum = u1 + 2 u2 + 3 u3 and product = u1 u2, plus one state
 * integrating u1 (x' = u1), so x_end is the integral of the first input. */
#include "../model.h"

enum { TIME, U1, U2, U3, SUM, PRODUCT, X, DER_X, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [U1] = {"u1", CAUSALITY_INPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "first input"},
    [U2] = {"u2", CAUSALITY_INPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "second input"},
    [U3] = {"u3", CAUSALITY_INPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "third input"},
    [SUM] = {"sum", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "u1 + 2 u2 + 3 u3"},
    [PRODUCT] = {"product", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "u1 u2"},
    [X] = {"x", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "integral of u1"},
    [DER_X] = {"der(x)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X, ""},
};
static const int states[] = {X};
static const int derivatives[] = {DER_X};

static int evaluate(Model* m) {
  m->v[SUM] = m->v[U1] + 2.0 * m->v[U2] + 3.0 * m->v[U3];
  m->v[PRODUCT] = m->v[U1] * m->v[U2];
  m->v[DER_X] = m->v[U1];
  return 0;
}

static void event_update(Model* m) {
  (void)m;
}

const ModelDefinition model_definition = {
    .identifier = "Feedthrough",
    .description = "three inputs through to two outputs, one integrated",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f004}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 1,
    .start_time = 0.0,
    .stop_time = 1.0,
    .tolerance = 1e-6,
    .step_size = 0.01,
    .cosim_step = 1e-3,
    .evaluate = evaluate,
    .event_update = event_update,
};
