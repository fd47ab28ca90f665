/* A clock (x' = 1) that, from t_crash on, crashes the process (SIGSEGV) or, with hang = 1,
 * never returns: what an importer must survive. It logs first, as a dying FMU might. */
#include "../model.h"

#include <signal.h>

enum { TIME, X, DER_X, T_CRASH, HANG, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [X] = {"x", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "clock"},
    [DER_X] = {"der(x)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, X, ""},
    [T_CRASH] = {"t_crash", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 0.5, -1,
                 "time of the crash"},
    [HANG] = {"hang", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 0.0, -1,
              "1: hang instead of crashing"},
};
static const int states[] = {X};
static const int derivatives[] = {DER_X};

static int evaluate(Model* m) {
  if (m->v[TIME] >= m->v[T_CRASH]) {
    model_log(m, 0, "about to %s at t = %g", m->v[HANG] > 0.5 ? "hang" : "crash", m->v[TIME]);
    if (m->v[HANG] > 0.5) {
      for (volatile int forever = 1; forever;) {
      }
    }
    raise(SIGSEGV);
  }
  m->v[DER_X] = 1.0;
  return 0;
}

static void event_update(Model* m) {
  (void)m;
}

const ModelDefinition model_definition = {
    .identifier = "Crash",
    .description = "crashes or hangs from t_crash on",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f006}",
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
