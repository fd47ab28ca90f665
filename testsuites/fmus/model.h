/* simverify's test FMUs: a model is its variables and a few C functions; fmi2_glue.c and
 * fmi3_glue.c turn one into an FMI 2.0 or FMI 3.0 FMU (model exchange and co-simulation),
 * describe.c prints its modelDescription.xml. Value reference = index into `variables`.
 *
 * The co-simulation side integrates the same equations itself (cosim.c: classical Runge-Kutta
 * with a fixed internal step, state events located by bisection), so one model yields all
 * four combinations of FMI version and interface. */
#ifndef SIMVERIFY_TEST_FMU_MODEL_H
#define SIMVERIFY_TEST_FMU_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  CAUSALITY_INDEPENDENT,
  CAUSALITY_PARAMETER,
  CAUSALITY_INPUT,
  CAUSALITY_OUTPUT,
  CAUSALITY_LOCAL
} Causality;

typedef enum { VARIABILITY_FIXED, VARIABILITY_TUNABLE, VARIABILITY_CONTINUOUS } Variability;

typedef struct {
  const char* name;
  Causality causality;
  Variability variability;
  int has_start; /* 0: initial="calculated" (or the independent variable) */
  double start;
  int derivative_of; /* the state variable this is the derivative of, or -1 */
  const char* description;
  const char* unit; /* NULL: none declared */
} VariableInfo;

#define MODEL_MAX_VARIABLES 16

/* One instance: the values of all variables and the model's discrete state. */
typedef struct Model {
  double v[MODEL_MAX_VARIABLES];
  double next_event_time; /* +inf: none */
  int terminate;          /* set by event_update: the simulation is over */
  long count;             /* discrete counter (events seen, steps of the stair, ...) */
  void* glue;             /* the FMI glue's instance */
} Model;

typedef struct {
  const char* identifier; /* modelIdentifier, modelName and the binary's name */
  const char* description;
  const char* token; /* guid (2.0) / instantiationToken (3.0) */
  const VariableInfo* variables;
  int n_variables;
  const int* states;      /* variable index of each continuous state, in order */
  const int* derivatives; /* variable index of each state's derivative */
  int n_states;
  int n_event_indicators;
  const int* indicator_variables; /* FMI 3.0 names each indicator by a variable */
  int needs_completed_integrator_step;
  double start_time, stop_time, tolerance, step_size; /* DefaultExperiment */
  double cosim_step;                                  /* co-simulation internal step */
  /* Calculated start values once the parameters are set (may be NULL). */
  void (*initialize)(Model* m);
  /* Derivatives and outputs from time, states, inputs and parameters; 0 when fine,
   * nonzero after model_log(m, 1, ...) said why it failed. */
  int (*evaluate)(Model* m);
  void (*event_indicators)(Model* m, double* z); /* may be NULL when n_event_indicators = 0 */
  /* What is due at an event (also called once at the end of initialization): may change
   * states and discrete state, set next_event_time and terminate. */
  void (*event_update)(Model* m);
  /* Called after every completed integrator step: nonzero asks for an event (may be NULL). */
  int (*step_completed)(Model* m);
  /* df/dx, row-major n_states x n_states (NULL: no directional derivatives). */
  void (*jacobian)(Model* m, double* dfdx);
} ModelDefinition;

extern const ModelDefinition model_definition; /* each models/<name>.c defines one */

/* Implemented by the glue: a message through the FMU's logger (error = 1: at Error status). */
void model_log(Model* m, int error, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Shared by both glues (model_common.c). */
void model_reset(Model* m, void* glue);
int model_state_index(int value_reference); /* position among the states, or -1 */
int model_derivative_index(int value_reference);
/* Co-simulation over [t, t + h] (cosim.c): 0 when fine, 1 on a model error, 2 when the model
 * ended the simulation (m->terminate; the time reached is in m->v[0]). */
int model_do_step(Model* m, double t, double h);
/* One event: event_update, then whether continuous states changed. */
int model_event(Model* m);
/* What both glues' variable and state access share; 0 when fine, 1 for a bad request. */
int model_get_reals(Model* m, const uint32_t* references, size_t n, double* values);
int model_set_reals(Model* m, const uint32_t* references, size_t n, const double* values);
int model_directional_derivative(Model* m, const uint32_t* unknowns, size_t n_unknowns,
                                 const uint32_t* knowns, size_t n_knowns, const double* seed,
                                 double* sensitivity);
int model_set_states(Model* m, const double* x, size_t n);
int model_get_states(const Model* m, double* x, size_t n);
int model_get_derivatives(Model* m, double* dxdt, size_t n);
int model_get_event_indicators(Model* m, double* z, size_t n);

#endif
