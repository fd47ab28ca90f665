#pragma once
// YAML input files read as the requirement loader reads its own, for the formats kept beside
// requirement files (block-diagram files, DIAGRAM-FORMAT.md). Each refusal is a Diagnostic at
// file:line:col.
#include <simverify/framework/diagnostics.hpp>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::framework {

// The file's whole text; nothing, with one diagnostic at path:1:1 in `errors`, when it is not a
// regular file (a FIFO, a device, a folder or a link to nothing is refused without blocking,
// core/read_file.hpp), cannot be read or is larger than 64 MiB. `what` names the file in
// messages ("diagram file").
[[nodiscard]] std::optional<std::string> read_yaml_file_text(const std::filesystem::path& path,
                                                             std::string_view what,
                                                             Diagnostics& errors);

// The text's one document; nothing, with the reasons in `errors`, when it is not valid YAML,
// is not UTF-8 of characters reports can hold (also where an escape writes them), holds a
// second document or repeats a key in any mapping, at any depth. `file` names it in the
// errors. An empty text is a null node: what that means is the caller's to say.
[[nodiscard]] std::optional<YAML::Node> parse_yaml_text(const std::string& text,
                                                        const std::string& file,
                                                        Diagnostics& errors);

// A scalar written as text: quoted ("0.1", '0.1') or tagged `!!str`. Only a plain scalar may
// read as a number or a boolean.
[[nodiscard]] bool is_text_scalar(const YAML::Node& node);

// A plain scalar written as a number that no double holds (1e309, -1e309, 1e-400): what is
// wrong with it; nothing for every other scalar. Requirement and diagram files refuse such a
// number at its place instead of reading it as text.
[[nodiscard]] std::optional<std::string> number_out_of_range(std::string_view scalar);

}  // namespace simverify::framework
