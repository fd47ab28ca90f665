// The diagram reader's libFuzzer entry point (diagram_fuzz_target.hpp). A separate binary from
// loader_fuzzer: a binary holds one LLVMFuzzerTestOneInput, and the diagram reader deserves
// its own corpus (diagram documents, not requirement files). Inputs are parsed as a file
// beside the shipped diagram models, so a subsystem a mutation names can resolve.
#include "diagram_fuzz_target.hpp"
#include "libfuzzer_entry.hpp"

SIMVERIFY_LIBFUZZER_ENTRY(simverify::fuzzing::check_diagram,
                          SIMVERIFY_SOURCE_DIR
                          "/requirements/integration/diagrams/models/fuzz-input.yaml",
                          "diagram reader")
