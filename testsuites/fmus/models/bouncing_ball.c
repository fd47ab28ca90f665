/* A ball dropped from h0 under gravity g, bouncing with restitution e:
 *   h' = v, v' = -g; at h = 0 with v < 0: v := -e v (and h := 0).
 * Closed form (simverify's bouncing_ball model, models.md): first impact after
 * sqrt(2 h0 / g), each later flight 2 e^k sqrt(2 g h0) / g. The event indicator is h. */
#include "../model.h"

enum { TIME, H, DER_H, V, DER_V, G, E, H0, N };

static const VariableInfo variables[N] = {
    [TIME] = {"time", CAUSALITY_INDEPENDENT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "simulation time"},
    [H] = {"h", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 0, 0.0, -1, "height, starts at h0", "m"},
    [DER_H] = {"der(h)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, H, "velocity", "m/s"},
    [V] = {"v", CAUSALITY_OUTPUT, VARIABILITY_CONTINUOUS, 1, 0.0, -1, "velocity", "m/s"},
    [DER_V] = {"der(v)", CAUSALITY_LOCAL, VARIABILITY_CONTINUOUS, 0, 0.0, V, "acceleration",
               "m/s2"},
    [G] = {"g", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 9.81, -1, "gravity", "m/s2"},
    [E] = {"e", CAUSALITY_PARAMETER, VARIABILITY_TUNABLE, 1, 0.8, -1, "coefficient of restitution"},
    [H0] = {"h0", CAUSALITY_PARAMETER, VARIABILITY_FIXED, 1, 1.0, -1, "initial height", "m"},
};
static const int states[] = {H, V};
static const int derivatives[] = {DER_H, DER_V};
static const int indicators[] = {H};

static void initialize(Model* m) {
  m->v[H] = m->v[H0];
}

static int evaluate(Model* m) {
  m->v[DER_H] = m->v[V];
  m->v[DER_V] = -m->v[G];
  return 0;
}

static void event_indicators(Model* m, double* z) {
  z[0] = m->v[H];
}

static void event_update(Model* m) {
  if (m->v[H] <= 0.0 && m->v[V] < 0.0) {
    m->v[H] = 0.0;
    m->v[V] = -m->v[E] * m->v[V];
    ++m->count;
  }
}

const ModelDefinition model_definition = {
    .identifier = "BouncingBall",
    .description = "bouncing ball with restitution",
    .token = "{8c4e810f-3df3-4a00-8276-176fa3c9f000}",
    .variables = variables,
    .n_variables = N,
    .states = states,
    .derivatives = derivatives,
    .n_states = 2,
    .n_event_indicators = 1,
    .indicator_variables = indicators,
    .start_time = 0.0,
    .stop_time = 3.0,
    .tolerance = 1e-6,
    .step_size = 0.01,
    .cosim_step = 1e-3,
    .initialize = initialize,
    .evaluate = evaluate,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
