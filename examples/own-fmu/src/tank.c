/* A water tank as an FMI 2.0 FMU for model exchange, written by hand to show what an FMU is
 * from the inside (Modelica tools, Simulink, Dymola and others export this for you):
 *
 *   A h' = q_in - c sqrt(h)        level h (m), inflow q_in (m3/s, the FMU's input),
 *                                  outflow through an orifice with coefficient c (m2.5/s)
 *
 * At the equilibrium the outflow matches the inflow: h* = (q_in / c)^2. The event indicator
 * h - h_alarm crosses zero when the level reaches the alarm height; the FMU counts alarms.
 * Value references: 0 h, 1 der(h), 2 q_in, 3 A, 4 c, 5 h_alarm, 6 alarms (see
 * modelDescription.xml). The declarations come from simverify's own FMI 2.0 header. */
#define SIMVERIFY_FMI2_EXPORTS
#include <simverify/fmu/fmi2.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { H, DER_H, Q_IN, AREA, C, H_ALARM, ALARMS, N };

typedef struct {
  double v[N];
  fmi2CallbackFunctions callbacks;
} Tank;

static const char* const kGuid = "{2b1ae4c0-6d8a-4f6e-9d33-7c54d1a0e001}";

static void derivatives(Tank* t) {
  const double h = t->v[H] > 0.0 ? t->v[H] : 0.0;
  t->v[DER_H] = (t->v[Q_IN] - t->v[C] * sqrt(h)) / t->v[AREA];
}

const char* fmi2GetVersion(void) {
  return "2.0";
}

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                              const fmi2CallbackFunctions* functions, fmi2Boolean visible,
                              fmi2Boolean logging) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)logging;
  if (type != fmi2ModelExchange || guid == NULL || strcmp(guid, kGuid) != 0) return NULL;
  Tank* t = (Tank*)calloc(1, sizeof(Tank));
  if (t == NULL) return NULL;
  const double start[N] = {0.0, 0.0, 0.01, 0.5, 0.02, 0.4, 0.0};
  memcpy(t->v, start, sizeof start);
  t->callbacks = *functions;
  return t;
}

void fmi2FreeInstance(fmi2Component c) {
  free(c);
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined, fmi2Real tolerance,
                               fmi2Real start, fmi2Boolean stop_defined, fmi2Real stop) {
  (void)c;
  (void)tolerance_defined;
  (void)tolerance;
  (void)start;
  (void)stop_defined;
  (void)stop;
  return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Tank* t = (Tank*)c;
  if (!(t->v[AREA] > 0.0) || !(t->v[C] > 0.0)) {
    t->callbacks.logger(t->callbacks.componentEnvironment, "Tank", fmi2Error, "logStatusError",
                        "A and c must be positive (A = %g, c = %g)", t->v[AREA], t->v[C]);
    return fmi2Error;
  }
  derivatives(t);
  return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c) {
  (void)c;
  return fmi2Error; /* not needed by simverify, which instantiates afresh */
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real value[]) {
  Tank* t = (Tank*)c;
  derivatives(t);
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= N) return fmi2Error;
    value[i] = t->v[vr[i]];
  }
  return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                       const fmi2Real value[]) {
  Tank* t = (Tank*)c;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= N) return fmi2Error;
    t->v[vr[i]] = value[i];
  }
  return fmi2OK;
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[], size_t nu,
                                        const fmi2ValueReference k[], size_t nk,
                                        const fmi2Real dk[], fmi2Real du[]) {
  (void)c;
  (void)u;
  (void)nu;
  (void)k;
  (void)nk;
  (void)dk;
  (void)du;
  return fmi2Error; /* not offered: providesDirectionalDerivative="false" */
}

fmi2Status fmi2EnterEventMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

/* Called at every event: a crossing of h - h_alarm upwards counts one alarm. */
fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  Tank* t = (Tank*)c;
  static const double kAbove = 1e-9;
  if (t->v[H] >= t->v[H_ALARM] - kAbove && t->v[DER_H] > 0.0) t->v[ALARMS] += 1.0;
  info->newDiscreteStatesNeeded = fmi2False;
  info->terminateSimulation = fmi2False;
  info->nominalsOfContinuousStatesChanged = fmi2False;
  info->valuesOfContinuousStatesChanged = fmi2False;
  info->nextEventTimeDefined = fmi2False;
  info->nextEventTime = 0.0;
  return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_set_state_prior,
                                       fmi2Boolean* enter_event_mode, fmi2Boolean* terminate) {
  (void)c;
  (void)no_set_state_prior;
  *enter_event_mode = fmi2False;
  *terminate = fmi2False;
  return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  (void)c;
  (void)time; /* the tank's equations do not depend on time */
  return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  if (n != 1) return fmi2Error;
  ((Tank*)c)->v[H] = x[0];
  return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  Tank* t = (Tank*)c;
  if (n != 1) return fmi2Error;
  derivatives(t);
  dx[0] = t->v[DER_H];
  return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
  Tank* t = (Tank*)c;
  if (n != 1) return fmi2Error;
  z[0] = t->v[H] - t->v[H_ALARM];
  return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  if (n != 1) return fmi2Error;
  x[0] = ((Tank*)c)->v[H];
  return fmi2OK;
}

/* Co-simulation is not offered (no <CoSimulation> in modelDescription.xml). */
fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_set_state_prior) {
  (void)c;
  (void)t;
  (void)h;
  (void)no_set_state_prior;
  return fmi2Error;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value) {
  (void)c;
  (void)s;
  (void)value;
  return fmi2Discard;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value) {
  (void)c;
  (void)s;
  (void)value;
  return fmi2Discard;
}
