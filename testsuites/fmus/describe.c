/* Prints a test model's modelDescription.xml for FMI 2.0 or 3.0 (model.h), so the C model is
 * the only description of its variables:  describe 2|3 OUTPUT_FILE [cs-only]
 * (cs-only leaves out <ModelExchange>: an FMU that offers co-simulation only). */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void model_log(Model* m, int error, const char* format, ...) {
  (void)m;
  (void)error;
  (void)format;
}

static const char* causality(Causality c) {
  switch (c) {
    case CAUSALITY_INDEPENDENT: return "independent";
    case CAUSALITY_PARAMETER: return "parameter";
    case CAUSALITY_INPUT: return "input";
    case CAUSALITY_OUTPUT: return "output";
    case CAUSALITY_LOCAL: return "local";
  }
  return "local";
}

static const char* variability(Variability v) {
  switch (v) {
    case VARIABILITY_FIXED: return "fixed";
    case VARIABILITY_TUNABLE: return "tunable";
    case VARIABILITY_CONTINUOUS: return "continuous";
  }
  return "continuous";
}

/* The standard's `initial` rules: parameters exact, inputs none, the rest exact with a start
 * value and calculated without one; the independent variable has none. */
static const char* initial(const VariableInfo* v) {
  if (v->causality == CAUSALITY_INDEPENDENT || v->causality == CAUSALITY_INPUT) return NULL;
  if (v->causality == CAUSALITY_PARAMETER) return "exact";
  return v->has_start ? "exact" : "calculated";
}

static void attributes(FILE* out, int index, const VariableInfo* v) {
  fprintf(out, " name=\"%s\" valueReference=\"%d\" causality=\"%s\" variability=\"%s\"", v->name,
          index, causality(v->causality), variability(v->variability));
  if (initial(v) != NULL) fprintf(out, " initial=\"%s\"", initial(v));
  if (v->description[0] != '\0') fprintf(out, " description=\"%s\"", v->description);
}

static void unit_attribute(FILE* out, const VariableInfo* v) {
  if (v->unit != NULL) fprintf(out, " unit=\"%s\"", v->unit);
}

/* The shortest of %.15g and %.17g that reads back as the same double. */
static const char* number(double x) {
  static char text[4][32];
  static int next = 0;
  char* out = text[next++ % 4];
  snprintf(out, 32, "%.15g", x);
  if (strtod(out, NULL) != x) snprintf(out, 32, "%.17g", x);
  return out;
}

static int co_simulation_only = 0;

/* <UnitDefinitions>: each distinct unit the variables name, once (both versions' schema
 * requires a variable's unit to be defined there). */
static void unit_definitions(FILE* out) {
  const ModelDefinition* d = &model_definition;
  int any = 0;
  for (int i = 0; i < d->n_variables; ++i) {
    const char* unit = d->variables[i].unit;
    int seen = unit == NULL;
    for (int j = 0; j < i && !seen; ++j)
      seen = d->variables[j].unit != NULL && strcmp(d->variables[j].unit, unit) == 0;
    if (seen) continue;
    if (!any) fprintf(out, "  <UnitDefinitions>\n");
    any = 1;
    fprintf(out, "    <Unit name=\"%s\"/>\n", unit);
  }
  if (any) fprintf(out, "  </UnitDefinitions>\n");
} /* describe 2|3 FILE cs-only: no <ModelExchange> */

static void header(FILE* out, int version) {
  const ModelDefinition* d = &model_definition;
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(out,
          "<fmiModelDescription fmiVersion=\"%s\" modelName=\"%s\" %s=\"%s\" "
          "description=\"%s\" generationTool=\"simverify test FMUs\" "
          "variableNamingConvention=\"flat\"",
          version == 2 ? "2.0" : "3.0", d->identifier, version == 2 ? "guid" : "instantiationToken",
          d->token, d->description);
  if (version == 2) fprintf(out, " numberOfEventIndicators=\"%d\"", d->n_event_indicators);
  fprintf(out, ">\n");
  if (co_simulation_only) {
    /* the FMU offers co-simulation only */
  } else if (version == 2) {
    fprintf(out,
            "  <ModelExchange modelIdentifier=\"%s\" providesDirectionalDerivative=\"%s\" "
            "completedIntegratorStepNotNeeded=\"%s\"/>\n",
            d->identifier, d->jacobian ? "true" : "false",
            d->needs_completed_integrator_step ? "false" : "true");
  } else {
    fprintf(out,
            "  <ModelExchange modelIdentifier=\"%s\" providesDirectionalDerivatives=\"%s\" "
            "needsCompletedIntegratorStep=\"%s\"/>\n",
            d->identifier, d->jacobian ? "true" : "false",
            d->needs_completed_integrator_step ? "true" : "false");
  }
  fprintf(
      out,
      "  <CoSimulation modelIdentifier=\"%s\" canHandleVariableCommunicationStepSize=\"true\"/>\n",
      d->identifier);
  unit_definitions(out);
  fprintf(out,
          "  <DefaultExperiment startTime=\"%s\" stopTime=\"%s\" tolerance=\"%s\" "
          "stepSize=\"%s\"/>\n",
          number(d->start_time), number(d->stop_time), number(d->tolerance), number(d->step_size));
}

static void describe_2(FILE* out) {
  const ModelDefinition* d = &model_definition;
  header(out, 2);
  fprintf(out, "  <ModelVariables>\n");
  for (int i = 0; i < d->n_variables; ++i) {
    const VariableInfo* v = &d->variables[i];
    fprintf(out, "    <ScalarVariable");
    attributes(out, i, v);
    fprintf(out, "><Real");
    unit_attribute(out, v);
    if (v->has_start) fprintf(out, " start=\"%s\"", number(v->start));
    if (v->derivative_of >= 0) fprintf(out, " derivative=\"%d\"", v->derivative_of + 1);
    fprintf(out, "/></ScalarVariable>\n");
  }
  fprintf(out, "  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n");
  for (int i = 0; i < d->n_variables; ++i) {
    if (d->variables[i].causality == CAUSALITY_OUTPUT) {
      fprintf(out, "      <Unknown index=\"%d\"/>\n", i + 1);
    }
  }
  fprintf(out, "    </Outputs>\n    <Derivatives>\n");
  for (int i = 0; i < d->n_states; ++i) {
    fprintf(out, "      <Unknown index=\"%d\"/>\n", d->derivatives[i] + 1);
  }
  fprintf(out, "    </Derivatives>\n  </ModelStructure>\n</fmiModelDescription>\n");
}

static void describe_3(FILE* out) {
  const ModelDefinition* d = &model_definition;
  header(out, 3);
  fprintf(out, "  <ModelVariables>\n");
  for (int i = 0; i < d->n_variables; ++i) {
    const VariableInfo* v = &d->variables[i];
    fprintf(out, "    <Float64");
    attributes(out, i, v);
    unit_attribute(out, v);
    if (v->has_start) fprintf(out, " start=\"%s\"", number(v->start));
    if (v->derivative_of >= 0) fprintf(out, " derivative=\"%d\"", v->derivative_of);
    fprintf(out, "/>\n");
  }
  fprintf(out, "  </ModelVariables>\n  <ModelStructure>\n");
  for (int i = 0; i < d->n_variables; ++i) {
    if (d->variables[i].causality == CAUSALITY_OUTPUT) {
      fprintf(out, "    <Output valueReference=\"%d\"/>\n", i);
    }
  }
  for (int i = 0; i < d->n_states; ++i) {
    fprintf(out, "    <ContinuousStateDerivative valueReference=\"%d\"/>\n", d->derivatives[i]);
  }
  for (int i = 0; i < d->n_event_indicators; ++i) {
    fprintf(out, "    <EventIndicator valueReference=\"%d\"/>\n", d->indicator_variables[i]);
  }
  fprintf(out, "  </ModelStructure>\n</fmiModelDescription>\n");
}

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || (strcmp(argv[1], "2") != 0 && strcmp(argv[1], "3") != 0) ||
      (argc == 4 && strcmp(argv[3], "cs-only") != 0)) {
    fprintf(stderr, "usage: describe 2|3 OUTPUT_FILE [cs-only]\n");
    return 2;
  }
  co_simulation_only = argc == 4;
  FILE* out = fopen(argv[2], "w");
  if (out == NULL) {
    perror(argv[2]);
    return 1;
  }
  if (argv[1][0] == '2') {
    describe_2(out);
  } else {
    describe_3(out);
  }
  return fclose(out) == 0 ? 0 : 1;
}
