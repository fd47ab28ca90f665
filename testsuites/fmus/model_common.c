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
