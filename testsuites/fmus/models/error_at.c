/* A clock (x' = 1) whose equations fail from t_error on: every evaluation at t >= t_error logs
 * why and returns Error (FMI 2.0 fmi2Error, FMI 3.0 fmi3Error). */
#include "../model.h"

enum { TIME, X, DER_X, T_ERROR, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [X] = {"x", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "clock"},
    [DER_X] = {"der(x)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X, ""},
    [T_ERROR] = {"t_error", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 0.5, -1,
                 "time of the failure"},
};
static const int states[] = {X};
static const int derivatives[] = {DER_X};

static int evaluate(Model* m) {
  if (m->v[TIME] >= m->v[T_ERROR]) {
    model_log(m, 1, "simulated failure: the equations have no solution at t = %g (t_error = %g)",
              m->v[TIME], m->v[T_ERROR]);
    return 1;
  }
  m->v[DER_X] = 1.0;
  return 0;
}

static void event_update(Model* m) {
  (void)m;
}

const ModelDefinition model_definition = {
    .identifier = "ErrorAt",
    .description = "returns Error from t_error on",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f005}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 1,
    .start_time = 0.0,
    .stop_time = 1.0,
    .tolerance = 1e-6,
    .step_size = 0.01,
    .cosim_step = 1e-2,
    .evaluate = evaluate,
    .event_update = event_update,
};
