/* The FMI 2.0 C interface (Functional Mock-up Interface 2.0, Modelica Association, 2014,
 * chapters 2.1 "Common concepts", 3.2 "Model Exchange: C API" and 4.2 "Co-Simulation: C API"):
 * the types, status codes, callback structure and function signatures, written for simverify
 * from the standard's text.
 *
 * simverify loads FMUs with dlopen and looks up the functions by their standard names, so
 * this header declares function *types* (fmi2InstantiateFn, ...): the importer uses pointers
 * to them, and an FMU written in C (simverify's test FMUs, the own-FMU example) declares its
 * exports with them, so the compiler checks every signature:
 *
 *   #define SIMVERIFY_FMI2_EXPORTS
 *   #include <simverify/fmu/fmi2.h>      (declares fmi2Instantiate, fmi2DoStep, ...)
 *
 * Only the functions simverify calls are here (Real variables, model exchange, co-simulation;
 * no FMU state serialization, no Integer/Boolean/String access). Valid for C and C++. */
#ifndef SIMVERIFY_FMU_FMI2_H
#define SIMVERIFY_FMU_FMI2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
/* NOLINTBEGIN(modernize-use-using): a C header, where `using` does not exist */

/* 2.1.2 Platform dependent definitions */
typedef void* fmi2Component;            /* an instance of the model */
typedef void* fmi2ComponentEnvironment; /* the importer's pointer, handed back to callbacks */
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char* fmi2String;

#define fmi2True 1
#define fmi2False 0

/* 2.1.3 Status returned by functions. Warning: computed, but something is off; Discard:
 * this call's results are not usable (co-simulation: the step could not be completed);
 * Error: the instance is unusable for further calls but fmi2FreeInstance; Fatal: every
 * instance of the model is unusable. Pending: an asynchronous fmi2DoStep is running. */
typedef enum {
  fmi2OK = 0,
  fmi2Warning = 1,
  fmi2Discard = 2,
  fmi2Error = 3,
  fmi2Fatal = 4,
  fmi2Pending = 5
} fmi2Status;

typedef enum { fmi2ModelExchange = 0, fmi2CoSimulation = 1 } fmi2Type;

/* 4.2.3 What fmi2Get*Status may be asked about. */
typedef enum {
  fmi2DoStepStatus = 0,
  fmi2PendingStatus = 1,
  fmi2LastSuccessfulTime = 2,
  fmi2Terminated = 3
} fmi2StatusKind;

/* 2.1.5 Callbacks the importer provides. The logger's message is a printf format for the
 * arguments that follow. */
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment environment, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void* (*fmi2CallbackAllocateMemory)(size_t count, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void* object);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment environment, fmi2Status status);

/* Field order as in the standard: the FMU reads it by position. */
typedef struct {
  fmi2CallbackLogger logger;
  fmi2CallbackAllocateMemory allocateMemory;
  fmi2CallbackFreeMemory freeMemory;
  fmi2StepFinished stepFinished;
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* 3.2.2 What an event update tells the importer. */
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* 2.1.4, 2.1.6 Creation, destruction, initialization (both interfaces). */
typedef const char* fmi2GetVersionFn(void);
typedef fmi2Component fmi2InstantiateFn(fmi2String instanceName, fmi2Type fmuType,
                                        fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                        const fmi2CallbackFunctions* functions, fmi2Boolean visible,
                                        fmi2Boolean loggingOn);
typedef void fmi2FreeInstanceFn(fmi2Component c);
typedef fmi2Status fmi2SetupExperimentFn(fmi2Component c, fmi2Boolean toleranceDefined,
                                         fmi2Real tolerance, fmi2Real startTime,
                                         fmi2Boolean stopTimeDefined, fmi2Real stopTime);
typedef fmi2Status fmi2EnterInitializationModeFn(fmi2Component c);
typedef fmi2Status fmi2ExitInitializationModeFn(fmi2Component c);
typedef fmi2Status fmi2TerminateFn(fmi2Component c);
typedef fmi2Status fmi2ResetFn(fmi2Component c);

/* 2.1.7 Real variables by value reference. */
typedef fmi2Status fmi2GetRealFn(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                 fmi2Real value[]);
typedef fmi2Status fmi2SetRealFn(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                 const fmi2Real value[]);

/* 2.1.9 Partial derivatives: dvUnknown = (d unknowns / d knowns) * dvKnown. */
typedef fmi2Status fmi2GetDirectionalDerivativeFn(fmi2Component c,
                                                  const fmi2ValueReference vUnknown_ref[],
                                                  size_t nUnknown,
                                                  const fmi2ValueReference vKnown_ref[],
                                                  size_t nKnown, const fmi2Real dvKnown[],
                                                  fmi2Real dvUnknown[]);

/* 3.2.2 Model exchange. */
typedef fmi2Status fmi2EnterEventModeFn(fmi2Component c);
typedef fmi2Status fmi2NewDiscreteStatesFn(fmi2Component c, fmi2EventInfo* eventInfo);
typedef fmi2Status fmi2EnterContinuousTimeModeFn(fmi2Component c);
typedef fmi2Status fmi2CompletedIntegratorStepFn(fmi2Component c,
                                                 fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                 fmi2Boolean* enterEventMode,
                                                 fmi2Boolean* terminateSimulation);
typedef fmi2Status fmi2SetTimeFn(fmi2Component c, fmi2Real time);
typedef fmi2Status fmi2SetContinuousStatesFn(fmi2Component c, const fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetDerivativesFn(fmi2Component c, fmi2Real derivatives[], size_t nx);
typedef fmi2Status fmi2GetEventIndicatorsFn(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
typedef fmi2Status fmi2GetContinuousStatesFn(fmi2Component c, fmi2Real x[], size_t nx);

/* 4.2.2, 4.2.3 Co-simulation. */
typedef fmi2Status fmi2DoStepFn(fmi2Component c, fmi2Real currentCommunicationPoint,
                                fmi2Real communicationStepSize,
                                fmi2Boolean noSetFMUStatePriorToCurrentPoint);
typedef fmi2Status fmi2GetBooleanStatusFn(fmi2Component c, const fmi2StatusKind s,
                                          fmi2Boolean* value);
typedef fmi2Status fmi2GetRealStatusFn(fmi2Component c, const fmi2StatusKind s, fmi2Real* value);

#ifdef SIMVERIFY_FMI2_EXPORTS
/* An FMU's exports, declared with the types above so the compiler checks the definitions. */
fmi2GetVersionFn fmi2GetVersion;
fmi2InstantiateFn fmi2Instantiate;
fmi2FreeInstanceFn fmi2FreeInstance;
fmi2SetupExperimentFn fmi2SetupExperiment;
fmi2EnterInitializationModeFn fmi2EnterInitializationMode;
fmi2ExitInitializationModeFn fmi2ExitInitializationMode;
fmi2TerminateFn fmi2Terminate;
fmi2ResetFn fmi2Reset;
fmi2GetRealFn fmi2GetReal;
fmi2SetRealFn fmi2SetReal;
fmi2GetDirectionalDerivativeFn fmi2GetDirectionalDerivative;
fmi2EnterEventModeFn fmi2EnterEventMode;
fmi2NewDiscreteStatesFn fmi2NewDiscreteStates;
fmi2EnterContinuousTimeModeFn fmi2EnterContinuousTimeMode;
fmi2CompletedIntegratorStepFn fmi2CompletedIntegratorStep;
fmi2SetTimeFn fmi2SetTime;
fmi2SetContinuousStatesFn fmi2SetContinuousStates;
fmi2GetDerivativesFn fmi2GetDerivatives;
fmi2GetEventIndicatorsFn fmi2GetEventIndicators;
fmi2GetContinuousStatesFn fmi2GetContinuousStates;
fmi2DoStepFn fmi2DoStep;
fmi2GetBooleanStatusFn fmi2GetBooleanStatus;
fmi2GetRealStatusFn fmi2GetRealStatus;
#endif

/* NOLINTEND(modernize-use-using) */
#ifdef __cplusplus
}
#endif

#endif /* SIMVERIFY_FMU_FMI2_H */
