#pragma once
// Internal: an XML input file (JUnit test results, Cobertura coverage) parsed with pugixml,
// which expands no entities and nests without recursion; a file that is no XML is an error
// naming the byte where it stops.
#include <fmt/format.h>
#include <pugixml.hpp>

#include <stdexcept>
#include <string>

namespace simverify::framework::detail {

inline void load_xml(pugi::xml_document& doc, const std::string& text, const std::string& label) {
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed) {
    throw std::runtime_error(fmt::format("{}: not valid XML at byte {}: {}", label, parsed.offset,
                                         parsed.description()));
  }
}

}  // namespace simverify::framework::detail
