/* The Van der Pol oscillator x0'' = mu (1 - x0^2) x0' - x0 as x0' = x1,
 * x1' = mu (1 - x0^2) x1 - x0, the same equations as simverify's built-in van_der_pol, with
 * its Jacobian as directional derivatives. */
#include "../model.h"

enum { TIME, X0, DER_X0, X1, DER_X1, MU, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [X0] = {"x0", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 2.0, -1, "position"},
    [DER_X0] = {"der(x0)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X0, ""},
    [X1] = {"x1", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "velocity"},
    [DER_X1] = {"der(x1)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X1, ""},
    [MU] = {"mu", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 1.0, -1, "nonlinear damping"},
};
static const int states[] = {X0, X1};
static const int derivatives[] = {DER_X0, DER_X1};

static int evaluate(Model* m) {
  const double x0 = m->v[X0], x1 = m->v[X1], mu = m->v[MU];
  m->v[DER_X0] = x1;
  m->v[DER_X1] = mu * (1.0 - x0 * x0) * x1 - x0;
  return 0;
}

static void event_update(Model* m) {
  (void)m;
}

static void jacobian(Model* m, double* dfdx) {
  const double x0 = m->v[X0], x1 = m->v[X1], mu = m->v[MU];
  dfdx[0] = 0.0;
  dfdx[1] = 1.0;
  dfdx[2] = -2.0 * mu * x0 * x1 - 1.0;
  dfdx[3] = mu * (1.0 - x0 * x0);
}

const ModelDefinition model_definition = {
    .identifier = "VanDerPol",
    .description = "Van der Pol oscillator",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f003}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 2,
    .start_time = 0.0,
    .stop_time = 20.0,
    .tolerance = 1e-6,
    .step_size = 0.01,
    .cosim_step = 1e-3,
    .evaluate = evaluate,
    .event_update = event_update,
    .jacobian = jacobian,
};
