/* A test model (model.h) as an FMI 2.0 FMU: every function simverify's importer calls, for
 * model exchange and co-simulation, declared through simverify/fmu/fmi2.h so the compiler
 * checks each signature against the importer's. */
#define SIMVERIFY_FMI2_EXPORTS
#include <simverify/fmu/fmi2.h>

#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Model model;
  fmi2Type type;
  fmi2CallbackFunctions callbacks;
  char name[64];
  int terminated; /* co-simulation: the model ended the simulation */
  double last_time;
} Instance;

void model_log(Model* m, int error, const char* format, ...) {
  Instance* self = (Instance*)m->glue;
  char text[512];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(text, sizeof text, format, arguments);
  va_end(arguments);
  if (self->callbacks.logger != NULL) {
    self->callbacks.logger(self->callbacks.componentEnvironment, self->name,
                           error ? fmi2Error : fmi2OK, error ? "logStatusError" : "logAll", "%s",
                           text);
  }
}

const char* fmi2GetVersion(void) {
  return "2.0";
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation,
                              const fmi2CallbackFunctions* functions, fmi2Boolean visible,
                              fmi2Boolean loggingOn) {
  (void)fmuResourceLocation;
  (void)visible;
  (void)loggingOn;
  if (functions == NULL || fmuGUID == NULL || strcmp(fmuGUID, model_definition.token) != 0) {
    return NULL;
  }
  Instance* self = (Instance*)calloc(1, sizeof(Instance));
  if (self == NULL) return NULL;
  self->type = fmuType;
  self->callbacks = *functions;
  snprintf(self->name, sizeof self->name, "%s", instanceName ? instanceName : "?");
  model_reset(&self->model, self);
  return self;
}

void fmi2FreeInstance(fmi2Component c) {
  free(c);
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                               fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
  (void)toleranceDefined;
  (void)tolerance;
  (void)stopTimeDefined;
  (void)stopTime;
  ((Instance*)c)->model.v[0] = startTime;
  return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Instance* self = (Instance*)c;
  if (model_definition.initialize != NULL) model_definition.initialize(&self->model);
  if (self->type == fmi2CoSimulation) { /* the initial event, handled by the FMU itself */
    model_event(&self->model);
    self->terminated = self->model.terminate;
  }
  return model_definition.evaluate(&self->model) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2Terminate(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c) {
  Instance* self = (Instance*)c;
  model_reset(&self->model, self);
  self->terminated = 0;
  return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       fmi2Real value[]) {
  return model_get_reals(&((Instance*)c)->model, vr, nvr, value) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       const fmi2Real value[]) {
  return model_set_reals(&((Instance*)c)->model, vr, nvr, value) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                        size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                        size_t nKnown, const fmi2Real dvKnown[],
                                        fmi2Real dvUnknown[]) {
  return model_directional_derivative(&((Instance*)c)->model, vUnknown_ref, nUnknown, vKnown_ref,
                                      nKnown, dvKnown, dvUnknown) == 0
             ? fmi2OK
             : fmi2Error;
}

fmi2Status fmi2EnterEventMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* eventInfo) {
  Instance* self = (Instance*)c;
  const int changed = model_event(&self->model);
  eventInfo->newDiscreteStatesNeeded = fmi2False;
  eventInfo->terminateSimulation = self->model.terminate ? fmi2True : fmi2False;
  eventInfo->nominalsOfContinuousStatesChanged = fmi2False;
  eventInfo->valuesOfContinuousStatesChanged = changed ? fmi2True : fmi2False;
  eventInfo->nextEventTimeDefined = self->model.next_event_time < 1e300 ? fmi2True : fmi2False;
  eventInfo->nextEventTime = self->model.next_event_time;
  return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c,
                                       fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi2Boolean* enterEventMode,
                                       fmi2Boolean* terminateSimulation) {
  Instance* self = (Instance*)c;
  (void)noSetFMUStatePriorToCurrentPoint;
  *enterEventMode =
      model_definition.step_completed != NULL && model_definition.step_completed(&self->model)
          ? fmi2True
          : fmi2False;
  *terminateSimulation = fmi2False;
  return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  ((Instance*)c)->model.v[0] = time;
  return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
  return model_set_states(&((Instance*)c)->model, x, nx) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
  return model_get_derivatives(&((Instance*)c)->model, derivatives, nx) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni) {
  return model_get_event_indicators(&((Instance*)c)->model, eventIndicators, ni) == 0 ? fmi2OK
                                                                                      : fmi2Error;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
  return model_get_states(&((Instance*)c)->model, x, nx) == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                      fmi2Real communicationStepSize,
                      fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
  Instance* self = (Instance*)c;
  (void)noSetFMUStatePriorToCurrentPoint;
  if (self->terminated) return fmi2Discard;
  const int outcome = model_do_step(&self->model, currentCommunicationPoint, communicationStepSize);
  if (outcome == 1) return fmi2Error;
  if (outcome == 2) {
    self->terminated = 1;
    self->last_time = self->model.v[0];
    return fmi2Discard;
  }
  return fmi2OK;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value) {
  Instance* self = (Instance*)c;
  if (s != fmi2Terminated) return fmi2Discard;
  *value = self->terminated ? fmi2True : fmi2False;
  return fmi2OK;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value) {
  Instance* self = (Instance*)c;
  if (s != fmi2LastSuccessfulTime) return fmi2Discard;
  *value = self->last_time;
  return fmi2OK;
}
