/* A test model (model.h) as an FMI 3.0 FMU: every function simverify's importer calls, for
 * model exchange and co-simulation, declared through simverify/fmu/fmi3.h so the compiler
 * checks each signature against the importer's. */
#define SIMVERIFY_FMI3_EXPORTS
#include <simverify/fmu/fmi3.h>

#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Model model;
  int co_simulation;
  fmi3InstanceEnvironment environment;
  fmi3LogMessageCallback log;
  int terminated;
} Instance;

void model_log(Model* m, int error, const char* format, ...) {
  Instance* self = (Instance*)m->glue;
  char text[512];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(text, sizeof text, format, arguments);
  va_end(arguments);
  if (self->log != NULL) {
    self->log(self->environment, error ? fmi3Error : fmi3OK, error ? "logStatusError" : "logEvents",
              text);
  }
}

const char* fmi3GetVersion(void) {
  return "3.0";
}

static Instance* create(fmi3String token, int co_simulation, fmi3InstanceEnvironment environment,
                        fmi3LogMessageCallback log) {
  if (token == NULL || strcmp(token, model_definition.token) != 0) return NULL;
  Instance* self = (Instance*)calloc(1, sizeof(Instance));
  if (self == NULL) return NULL;
  self->co_simulation = co_simulation;
  self->environment = environment;
  self->log = log;
  model_reset(&self->model, self);
  return self;
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                          fmi3String resourcePath, fmi3Boolean visible,
                                          fmi3Boolean loggingOn,
                                          fmi3InstanceEnvironment instanceEnvironment,
                                          fmi3LogMessageCallback logMessage) {
  (void)instanceName;
  (void)resourcePath;
  (void)visible;
  (void)loggingOn;
  return create(instantiationToken, 0, instanceEnvironment, logMessage);
}

fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate) {
  (void)instanceName;
  (void)resourcePath;
  (void)visible;
  (void)loggingOn;
  (void)requiredIntermediateVariables;
  (void)nRequiredIntermediateVariables;
  (void)intermediateUpdate;
  if (eventModeUsed || earlyReturnAllowed) return NULL; /* not implemented by these FMUs */
  return create(instantiationToken, 1, instanceEnvironment, logMessage);
}

void fmi3FreeInstance(fmi3Instance instance) {
  free(instance);
}

fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                       fmi3Float64 tolerance, fmi3Float64 startTime,
                                       fmi3Boolean stopTimeDefined, fmi3Float64 stopTime) {
  (void)toleranceDefined;
  (void)tolerance;
  (void)stopTimeDefined;
  (void)stopTime;
  ((Instance*)instance)->model.v[0] = startTime;
  return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  Instance* self = (Instance*)instance;
  if (model_definition.initialize != NULL) model_definition.initialize(&self->model);
  if (self->co_simulation) {
    model_event(&self->model);
    self->terminated = self->model.terminate;
  }
  return model_definition.evaluate(&self->model) == 0 ? fmi3OK : fmi3Error;
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3Terminate(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance) {
  Instance* self = (Instance*)instance;
  model_reset(&self->model, self);
  self->terminated = 0;
  return fmi3OK;
}

fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean* discreteStatesNeedUpdate,
                                    fmi3Boolean* terminateSimulation,
                                    fmi3Boolean* nominalsOfContinuousStatesChanged,
                                    fmi3Boolean* valuesOfContinuousStatesChanged,
                                    fmi3Boolean* nextEventTimeDefined, fmi3Float64* nextEventTime) {
  Instance* self = (Instance*)instance;
  const int changed = model_event(&self->model);
  *discreteStatesNeedUpdate = false;
  *terminateSimulation = self->model.terminate != 0;
  *nominalsOfContinuousStatesChanged = false;
  *valuesOfContinuousStatesChanged = changed != 0;
  *nextEventTimeDefined = self->model.next_event_time < 1e300;
  *nextEventTime = self->model.next_event_time;
  return fmi3OK;
}

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                          size_t nValueReferences, fmi3Float64 values[], size_t nValues) {
  if (nValues != nValueReferences) return fmi3Error;
  return model_get_reals(&((Instance*)instance)->model, valueReferences, nValueReferences,
                         values) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                          size_t nValueReferences, const fmi3Float64 values[], size_t nValues) {
  if (nValues != nValueReferences) return fmi3Error;
  return model_set_reals(&((Instance*)instance)->model, valueReferences, nValueReferences,
                         values) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                        size_t nUnknowns, const fmi3ValueReference knowns[],
                                        size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                        fmi3Float64 sensitivity[], size_t nSensitivity) {
  if (nSeed != nKnowns || nSensitivity != nUnknowns) return fmi3Error;
  return model_directional_derivative(&((Instance*)instance)->model, unknowns, nUnknowns, knowns,
                                      nKnowns, seed, sensitivity) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                       fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi3Boolean* enterEventMode,
                                       fmi3Boolean* terminateSimulation) {
  Instance* self = (Instance*)instance;
  (void)noSetFMUStatePriorToCurrentPoint;
  *enterEventMode =
      model_definition.step_completed != NULL && model_definition.step_completed(&self->model);
  *terminateSimulation = false;
  return fmi3OK;
}

fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
  ((Instance*)instance)->model.v[0] = time;
  return fmi3OK;
}

fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                   size_t nContinuousStates) {
  return model_set_states(&((Instance*)instance)->model, continuousStates, nContinuousStates) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                             size_t nContinuousStates) {
  return model_get_derivatives(&((Instance*)instance)->model, derivatives, nContinuousStates) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                  size_t nEventIndicators) {
  return model_get_event_indicators(&((Instance*)instance)->model, eventIndicators,
                                    nEventIndicators) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 continuousStates[],
                                   size_t nContinuousStates) {
  return model_get_states(&((Instance*)instance)->model, continuousStates, nContinuousStates) == 0
             ? fmi3OK
             : fmi3Error;
}

fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t* nEventIndicators) {
  (void)instance;
  *nEventIndicators = (size_t)model_definition.n_event_indicators;
  return fmi3OK;
}

fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t* nContinuousStates) {
  (void)instance;
  *nContinuousStates = (size_t)model_definition.n_states;
  return fmi3OK;
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                      fmi3Float64 communicationStepSize,
                      fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                      fmi3Boolean* eventHandlingNeeded, fmi3Boolean* terminateSimulation,
                      fmi3Boolean* earlyReturn, fmi3Float64* lastSuccessfulTime) {
  Instance* self = (Instance*)instance;
  (void)noSetFMUStatePriorToCurrentPoint;
  *eventHandlingNeeded = false;
  *earlyReturn = false;
  *terminateSimulation = false;
  *lastSuccessfulTime = currentCommunicationPoint;
  if (self->terminated) {
    *terminateSimulation = true;
    return fmi3Discard;
  }
  const int outcome = model_do_step(&self->model, currentCommunicationPoint, communicationStepSize);
  *lastSuccessfulTime = self->model.v[0];
  if (outcome == 1) return fmi3Error;
  if (outcome == 2) {
    self->terminated = 1;
    *terminateSimulation = true;
  }
  return fmi3OK;
}
