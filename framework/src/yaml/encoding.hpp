#pragma once
// Internal: the characters a YAML file may hold. Strings from requirement and project files
// end up in results.json and junit.xml, so a file must be valid UTF-8 of characters XML 1.0
// allows (tab, line breaks and everything from U+0020 except surrogates, U+FFFE and U+FFFF):
// refused at load, with the place, rather than written out as a broken report.
#include "located_errors.hpp"

#include <string_view>

namespace simverify::framework::yaml {

// True when `text` is such; otherwise reports the first offending character and returns false.
bool check_encoding(std::string_view text, LocatedErrors& errors);

}  // namespace simverify::framework::yaml
