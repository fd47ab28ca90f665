/* What both FMI glues share: instance reset, index lookups, one event. */
#include "model.h"

#include <math.h>
#include <string.h>

void model_reset(Model* m, void* glue) {
  memset(m, 0, sizeof *m);
  for (int i = 0; i < model_definition.n_variables; ++i) {
    m->v[i] = model_definition.variables[i].has_start ? model_definition.variables[i].start : 0.0;
  }
  m->next_event_time = INFINITY;
  m->glue = glue;
}

int model_state_index(int value_reference) {
  for (int i = 0; i < model_definition.n_states; ++i) {
    if (model_definition.states[i] == value_reference) return i;
  }
  return -1;
}

int model_derivative_index(int value_reference) {
  for (int i = 0; i < model_definition.n_states; ++i) {
    if (model_definition.derivatives[i] == value_reference) return i;
  }
  return -1;
}

int model_event(Model* m) {
  double before[MODEL_MAX_VARIABLES];
  for (int i = 0; i < model_definition.n_states; ++i) before[i] = m->v[model_definition.states[i]];
  model_definition.event_update(m);
  for (int i = 0; i < model_definition.n_states; ++i) {
    if (before[i] != m->v[model_definition.states[i]]) return 1;
  }
  return 0;
}

int model_get_reals(Model* m, const uint32_t* references, size_t n, double* values) {
  if (model_definition.evaluate(m) != 0) return 1;
  for (size_t i = 0; i < n; ++i) {
    if (references[i] >= (uint32_t)model_definition.n_variables) return 1;
    values[i] = m->v[references[i]];
  }
  return 0;
}

int model_set_reals(Model* m, const uint32_t* references, size_t n, const double* values) {
  for (size_t i = 0; i < n; ++i) {
    if (references[i] >= (uint32_t)model_definition.n_variables) return 1;
    m->v[references[i]] = values[i];
  }
  return 0;
}

int model_directional_derivative(Model* m, const uint32_t* unknowns, size_t n_unknowns,
                                 const uint32_t* knowns, size_t n_knowns, const double* seed,
                                 double* sensitivity) {
  const int n = model_definition.n_states;
  double jacobian[MODEL_MAX_VARIABLES * MODEL_MAX_VARIABLES];
  if (model_definition.jacobian == NULL) return 1;
  model_definition.jacobian(m, jacobian);
  for (size_t i = 0; i < n_unknowns; ++i) {
    const int row = model_derivative_index((int)unknowns[i]);
    if (row < 0) return 1;
    sensitivity[i] = 0.0;
    for (size_t j = 0; j < n_knowns; ++j) {
      const int column = model_state_index((int)knowns[j]);
      if (column < 0) return 1;
      sensitivity[i] += jacobian[row * n + column] * seed[j];
    }
  }
  return 0;
}

int model_set_states(Model* m, const double* x, size_t n) {
  if (n != (size_t)model_definition.n_states) return 1;
  for (size_t i = 0; i < n; ++i) m->v[model_definition.states[i]] = x[i];
  return 0;
}

int model_get_states(const Model* m, double* x, size_t n) {
  if (n != (size_t)model_definition.n_states) return 1;
  for (size_t i = 0; i < n; ++i) x[i] = m->v[model_definition.states[i]];
  return 0;
}

int model_get_derivatives(Model* m, double* dxdt, size_t n) {
  if (n != (size_t)model_definition.n_states || model_definition.evaluate(m) != 0) return 1;
  for (size_t i = 0; i < n; ++i) dxdt[i] = m->v[model_definition.derivatives[i]];
  return 0;
}

int model_get_event_indicators(Model* m, double* z, size_t n) {
  if (n != (size_t)model_definition.n_event_indicators) return 1;
  if (n > 0) model_definition.event_indicators(m, z);
  return 0;
}
