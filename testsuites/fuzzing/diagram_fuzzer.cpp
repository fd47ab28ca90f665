// The diagram reader's libFuzzer entry point (diagram_fuzz_target.hpp). A separate binary from
// loader_fuzzer: a binary holds one LLVMFuzzerTestOneInput, and the diagram reader deserves
// its own corpus (diagram documents, not requirement files). Inputs are parsed as a file
// beside the shipped diagram models, so a subsystem a mutation names can resolve.
#include "diagram_fuzz_target.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file_name =
      SIMVERIFY_SOURCE_DIR "/requirements/integration/diagrams/models/fuzz-input.yaml";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto broken = simverify::fuzzing::check_diagram(text, file_name)) {
    std::fprintf(stderr, "diagram reader promise broken: %s\n", broken->c_str());
    std::abort();
  }
  return 0;
}
