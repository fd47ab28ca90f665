#pragma once
// The diagram reader's promises under arbitrary input (DIAGRAM-FORMAT.md: every diagram error
// is a DiagramError at file:line:column), checked for one document. The replay driver runs it
// over the shipped diagrams and seeded mutations of them, beside the requirement loader's.
#include <optional>
#include <string>
#include <string_view>

namespace simverify::fuzzing {

// Reads `text` as the diagram file `file_name`, compiles it and, when it compiles, evaluates
// it once at t = 0 with its default parameters; returns the first broken promise, or nullopt.
// Promises: nothing but a DiagramError escapes reading and compiling, its message is not
// empty and it points into the input (line 1..lines+1, column >= 1) or into an existing
// subsystem file; an evaluation fails, if at all, with a std::exception. Never throws.
[[nodiscard]] std::optional<std::string> check_diagram(std::string_view text,
                                                       const std::string& file_name);

// True when `text` is a diagram document (a top-level `diagram:` key), not a requirement file.
[[nodiscard]] bool is_diagram_document(std::string_view text);

}  // namespace simverify::fuzzing
