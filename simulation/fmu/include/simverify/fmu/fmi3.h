/* The FMI 3.0 C interface (Functional Mock-up Interface 3.0, Modelica Association, 2022,
 * chapters 2.2 "Common Mechanisms", 3.2 "Model Exchange" and 4.2 "Co-Simulation"): the types,
 * status codes, callbacks and function signatures, written for simverify from the standard's
 * text.
 *
 * As fmi2.h: function *types* (fmi3InstantiateModelExchangeFn, ...) for the importer's
 * dlsym pointers and, with SIMVERIFY_FMI3_EXPORTS defined, declarations of an FMU's exports
 * so a C FMU's definitions are checked against them. Only the functions simverify calls are
 * here (Float64 variables, model exchange, co-simulation without event mode, intermediate
 * updates or FMU state). Valid for C and C++. */
#ifndef SIMVERIFY_FMU_FMI3_H
#define SIMVERIFY_FMU_FMI3_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* NOLINTBEGIN(modernize-use-using): a C header, where `using` does not exist */

/* 2.2.2 Platform dependent definitions */
typedef void* fmi3Instance;            /* an instance of the model */
typedef void* fmi3InstanceEnvironment; /* the importer's pointer, handed back to callbacks */
typedef uint32_t fmi3ValueReference;
typedef double fmi3Float64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char* fmi3String;

#define fmi3True true
#define fmi3False false

/* 2.2.3 Status returned by functions (meanings as fmi2Status; no Pending in FMI 3.0). */
typedef enum {
  fmi3OK = 0,
  fmi3Warning = 1,
  fmi3Discard = 2,
  fmi3Error = 3,
  fmi3Fatal = 4
} fmi3Status;

/* 2.3.1 Callbacks. The message is complete text (no printf format, unlike FMI 2.0). */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment instanceEnvironment,
                                       fmi3Status status, fmi3String category, fmi3String message);
typedef void (*fmi3IntermediateUpdateCallback)(
    fmi3InstanceEnvironment instanceEnvironment, fmi3Float64 intermediateUpdateTime,
    fmi3Boolean intermediateVariableSetRequested, fmi3Boolean intermediateVariableGetAllowed,
    fmi3Boolean intermediateStepFinished, fmi3Boolean canReturnEarly,
    fmi3Boolean* earlyReturnRequested, fmi3Float64* earlyReturnTime);

/* 2.3.1 Creation and destruction. resourcePath is the absolute native path of the unpacked
 * FMU's resources/ folder, ending in a separator. */
typedef const char* fmi3GetVersionFn(void);
typedef fmi3Instance fmi3InstantiateModelExchangeFn(fmi3String instanceName,
                                                    fmi3String instantiationToken,
                                                    fmi3String resourcePath, fmi3Boolean visible,
                                                    fmi3Boolean loggingOn,
                                                    fmi3InstanceEnvironment instanceEnvironment,
                                                    fmi3LogMessageCallback logMessage);
typedef fmi3Instance fmi3InstantiateCoSimulationFn(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate);
typedef void fmi3FreeInstanceFn(fmi3Instance instance);

/* 2.3.2 - 2.3.6 Initialization, events, termination (both interfaces). */
typedef fmi3Status fmi3EnterInitializationModeFn(fmi3Instance instance,
                                                 fmi3Boolean toleranceDefined,
                                                 fmi3Float64 tolerance, fmi3Float64 startTime,
                                                 fmi3Boolean stopTimeDefined, fmi3Float64 stopTime);
typedef fmi3Status fmi3ExitInitializationModeFn(fmi3Instance instance);
typedef fmi3Status fmi3EnterEventModeFn(fmi3Instance instance);
typedef fmi3Status fmi3TerminateFn(fmi3Instance instance);
typedef fmi3Status fmi3ResetFn(fmi3Instance instance);
typedef fmi3Status fmi3UpdateDiscreteStatesFn(
    fmi3Instance instance, fmi3Boolean* discreteStatesNeedUpdate, fmi3Boolean* terminateSimulation,
    fmi3Boolean* nominalsOfContinuousStatesChanged, fmi3Boolean* valuesOfContinuousStatesChanged,
    fmi3Boolean* nextEventTimeDefined, fmi3Float64* nextEventTime);

/* 2.2.6.2 Float64 variables by value reference (nValues counts array elements). */
typedef fmi3Status fmi3GetFloat64Fn(fmi3Instance instance,
                                    const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Float64 values[], size_t nValues);
typedef fmi3Status fmi3SetFloat64Fn(fmi3Instance instance,
                                    const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Float64 values[],
                                    size_t nValues);

/* 2.2.11 Partial derivatives: sensitivity = (d unknowns / d knowns) * seed. */
typedef fmi3Status fmi3GetDirectionalDerivativeFn(fmi3Instance instance,
                                                  const fmi3ValueReference unknowns[],
                                                  size_t nUnknowns,
                                                  const fmi3ValueReference knowns[], size_t nKnowns,
                                                  const fmi3Float64 seed[], size_t nSeed,
                                                  fmi3Float64 sensitivity[], size_t nSensitivity);

/* 3.2.1 Model exchange. */
typedef fmi3Status fmi3EnterContinuousTimeModeFn(fmi3Instance instance);
typedef fmi3Status fmi3CompletedIntegratorStepFn(fmi3Instance instance,
                                                 fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                 fmi3Boolean* enterEventMode,
                                                 fmi3Boolean* terminateSimulation);
typedef fmi3Status fmi3SetTimeFn(fmi3Instance instance, fmi3Float64 time);
typedef fmi3Status fmi3SetContinuousStatesFn(fmi3Instance instance,
                                             const fmi3Float64 continuousStates[],
                                             size_t nContinuousStates);
typedef fmi3Status fmi3GetContinuousStateDerivativesFn(fmi3Instance instance,
                                                       fmi3Float64 derivatives[],
                                                       size_t nContinuousStates);
typedef fmi3Status fmi3GetEventIndicatorsFn(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                            size_t nEventIndicators);
typedef fmi3Status fmi3GetContinuousStatesFn(fmi3Instance instance, fmi3Float64 continuousStates[],
                                             size_t nContinuousStates);
typedef fmi3Status fmi3GetNumberOfEventIndicatorsFn(fmi3Instance instance,
                                                    size_t* nEventIndicators);
typedef fmi3Status fmi3GetNumberOfContinuousStatesFn(fmi3Instance instance,
                                                     size_t* nContinuousStates);

/* 4.2.1 Co-simulation (without event mode: eventHandlingNeeded is then always false). */
typedef fmi3Status fmi3DoStepFn(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                fmi3Float64 communicationStepSize,
                                fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                fmi3Boolean* eventHandlingNeeded, fmi3Boolean* terminateSimulation,
                                fmi3Boolean* earlyReturn, fmi3Float64* lastSuccessfulTime);

#ifdef SIMVERIFY_FMI3_EXPORTS
fmi3GetVersionFn fmi3GetVersion;
fmi3InstantiateModelExchangeFn fmi3InstantiateModelExchange;
fmi3InstantiateCoSimulationFn fmi3InstantiateCoSimulation;
fmi3FreeInstanceFn fmi3FreeInstance;
fmi3EnterInitializationModeFn fmi3EnterInitializationMode;
fmi3ExitInitializationModeFn fmi3ExitInitializationMode;
fmi3EnterEventModeFn fmi3EnterEventMode;
fmi3TerminateFn fmi3Terminate;
fmi3ResetFn fmi3Reset;
fmi3UpdateDiscreteStatesFn fmi3UpdateDiscreteStates;
fmi3GetFloat64Fn fmi3GetFloat64;
fmi3SetFloat64Fn fmi3SetFloat64;
fmi3GetDirectionalDerivativeFn fmi3GetDirectionalDerivative;
fmi3EnterContinuousTimeModeFn fmi3EnterContinuousTimeMode;
fmi3CompletedIntegratorStepFn fmi3CompletedIntegratorStep;
fmi3SetTimeFn fmi3SetTime;
fmi3SetContinuousStatesFn fmi3SetContinuousStates;
fmi3GetContinuousStateDerivativesFn fmi3GetContinuousStateDerivatives;
fmi3GetEventIndicatorsFn fmi3GetEventIndicators;
fmi3GetContinuousStatesFn fmi3GetContinuousStates;
fmi3GetNumberOfEventIndicatorsFn fmi3GetNumberOfEventIndicators;
fmi3GetNumberOfContinuousStatesFn fmi3GetNumberOfContinuousStates;
fmi3DoStepFn fmi3DoStep;
#endif

/* NOLINTEND(modernize-use-using) */
#ifdef __cplusplus
}
#endif

#endif /* SIMVERIFY_FMU_FMI3_H */
