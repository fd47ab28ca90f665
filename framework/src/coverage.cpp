#include "coverage.hpp"

#include "detail/json.hpp"
#include "detail/read_file.hpp"
#include "detail/text.hpp"
#include "detail/xml.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

Json parse_json(const std::string& text, const std::string& label) {
  try {
    return detail::parse_json_document(text, label);
  } catch (const detail::JsonInputError& e) {
    throw std::runtime_error(e.what());
  }
}

CoverageFigure figure(double covered, double total) {
  return {covered, total, total > 0 ? 100.0 * covered / total : 0.0};
}

std::optional<CoverageFigure> json_figure(const Json& doc, const char* key,
                                          const std::string& label) {
  if (!doc.contains(key) || doc[key].is_null()) return std::nullopt;
  const Json& f = doc[key];
  const auto bad = [&](const std::string& what) {
    return std::runtime_error(fmt::format("{}: \"{}\": {}", label, key, what));
  };
  if (!f.is_object()) throw bad("expected an object {\"covered\", \"total\", \"percent\"}");
  const auto number = [&](const char* name) -> std::optional<double> {
    if (!f.contains(name)) return std::nullopt;
    if (!f[name].is_number() || f[name].get<double>() < 0) {
      throw bad(fmt::format("\"{}\" must be a non-negative number", name));
    }
    return f[name].get<double>();
  };
  const auto covered = number("covered");
  const auto total = number("total");
  const auto percent = number("percent");
  if (covered && total) {
    if (*covered > *total) throw bad("\"covered\" exceeds \"total\"");
    return figure(*covered, *total);
  }
  if (percent && *percent <= 100) return CoverageFigure{0, 0, *percent};
  throw bad("expected \"covered\" and \"total\", or \"percent\" between 0 and 100");
}

CoverageSummary parse_json_coverage(const std::string& text, const std::string& label) {
  const Json doc = parse_json(text, label);
  if (!doc.is_object()) throw std::runtime_error(label + ": expected a JSON object");
  CoverageSummary s{label, json_figure(doc, "line", label), json_figure(doc, "branch", label)};
  if (!s.line && !s.branch) {
    throw std::runtime_error(label + ": expected \"line\" and/or \"branch\" figures");
  }
  return s;
}

// What an lcov tracefile says of one source file, over all its records: a tracefile of
// `lcov -a t1.info -a t2.info` (or geninfo's per-test sections) repeats the same SF: once per
// test, and a line or branch is one line or branch however many records name it. lcov merges
// them this way (a line is covered when any record covers it).
struct LcovSource {
  std::unordered_map<std::string, bool> lines;     // DA line (no leading zeros) -> executed
  std::unordered_map<std::string, bool> branches;  // BRDA "line,block,branch" -> taken
  std::array<double, 4> totals{};                  // LF, LH, BRF, BRH: the largest given
  std::array<bool, 4> has_totals{};
};

// lcov tracefile: DA/BRDA records merged per source file and line (or branch); a file with no
// DA (BRDA) record counts its LF/LH (BRF/BRH) totals, the largest of its records': records of
// one file cannot be merged by their totals, and the largest never claims more than they show.
CoverageSummary parse_lcov(const std::string& text, const std::string& label) {
  std::unordered_map<std::string, LcovSource> sources;
  std::string current;  // the record's SF:
  bool any = false;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  // A record that names no source file cannot be merged with another: it keys by its line.
  const auto unnamed = [&] { return fmt::format("\n{}", number); };
  current = unnamed();
  const auto value = [&](const std::string& v) {
    try {
      // Counts are whole decimals: "nan", "0x10" or "1e3" are no count std::stod should read.
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
        throw std::invalid_argument("");
      }
      std::size_t used = 0;
      const double d = std::stod(v, &used);
      if (used != v.size() || !std::isfinite(d)) throw std::invalid_argument("");
      return d;
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format("{}:{}: expected a non-negative count, got '{}'", label,
                                           number, detail::excerpt(v)));
    }
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line == "end_of_record") {
      sources[current];  // a record with no figure still names its file
      current = unnamed();
      any = true;
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      throw std::runtime_error(fmt::format("{}:{}: expected an lcov record 'KEY:value', got '{}'",
                                           label, number, detail::excerpt(line)));
    }
    const std::string key = line.substr(0, colon);
    const std::string rest = line.substr(colon + 1);
    if (key == "SF") {
      current = rest;
      continue;
    }
    LcovSource& source = sources[current];
    static constexpr std::array<const char*, 4> kTotals = {"LF", "LH", "BRF", "BRH"};
    for (std::size_t i = 0; i < 4; ++i) {
      if (key == kTotals[i]) {
        source.totals[i] = std::max(source.has_totals[i] ? source.totals[i] : 0.0, value(rest));
        source.has_totals[i] = true;
      }
    }
    if (key == "DA") {
      const auto comma = rest.find(',');
      if (comma == std::string::npos) {
        throw std::runtime_error(fmt::format("{}:{}: expected DA:line,count", label, number));
      }
      std::string at = rest.substr(0, comma);
      (void)value(at);  // a whole number: "DA:x,1" is no line
      at.erase(0, std::min(at.find_first_not_of('0'), at.size() - 1));
      const bool hit = value(rest.substr(comma + 1, rest.find(',', comma + 1) - comma - 1)) > 0;
      source.lines[at] = source.lines[at] || hit;
    } else if (key == "BRDA") {
      const auto last = rest.rfind(',');
      if (last == std::string::npos) {
        throw std::runtime_error(
            fmt::format("{}:{}: expected BRDA:line,block,branch,taken", label, number));
      }
      const std::string taken = rest.substr(last + 1);
      const bool hit = taken != "-" && value(taken) > 0;
      bool& branch = source.branches[rest.substr(0, last)];
      branch = branch || hit;
    }
  }
  if (!any) {
    throw std::runtime_error(label +
                             ": not a coverage file: expected ci/coverage's summary JSON, "
                             "Cobertura XML or an lcov tracefile (no 'end_of_record' line found)");
  }
  std::array<double, 4> sum{};  // lines found, hit, branches found, hit
  for (const auto& [file, source] : sources) {
    if (!source.lines.empty()) {
      sum[0] += static_cast<double>(source.lines.size());
      sum[1] += static_cast<double>(std::count_if(source.lines.begin(), source.lines.end(),
                                                  [](auto& l) { return l.second; }));
    } else {
      sum[0] += source.totals[0];
      sum[1] += source.totals[1];
    }
    if (!source.branches.empty()) {
      sum[2] += static_cast<double>(source.branches.size());
      sum[3] += static_cast<double>(std::count_if(source.branches.begin(), source.branches.end(),
                                                  [](auto& b) { return b.second; }));
    } else {
      sum[2] += source.totals[2];
      sum[3] += source.totals[3];
    }
  }
  CoverageSummary s{label, figure(sum[1], sum[0]), std::nullopt};
  if (sum[2] > 0) s.branch = figure(sum[3], sum[2]);
  return s;
}

// Cobertura XML (gcovr --cobertura): the totals are attributes of the <coverage> root element,
// read with an XML parser: a <coverage> inside a comment or a CDATA section is no element, and
// a huge or unclosed tag is an error, not a regular expression's recursion without end.
CoverageSummary parse_cobertura(const std::string& text, const std::string& label) {
  pugi::xml_document doc;
  detail::load_xml(doc, text, label);
  const pugi::xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "coverage") {
    throw std::runtime_error(
        fmt::format("{}: expected a Cobertura <coverage> root element, found <{}>", label,
                    detail::excerpt(root.name())));
  }
  const auto attribute = [&](const char* name) -> std::optional<double> {
    const pugi::xml_attribute found = root.attribute(name);
    if (!found) return std::nullopt;
    const std::string_view written = found.value();
    // Counts are plain decimals ("1234", "0.5"): no sign, exponent, hex or NaN.
    std::size_t used = 0;
    double value = 0;
    const bool plain = !written.empty() && written.find_first_not_of("0123456789.") == written.npos;
    try {
      if (plain) value = std::stod(std::string(written), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (!plain || used != written.size() || !std::isfinite(value)) {
      throw std::runtime_error(fmt::format("{}: <coverage> attribute {}=\"{}\" is not a number",
                                           label, name, detail::excerpt(written)));
    }
    return value;
  };
  CoverageSummary s{label, std::nullopt, std::nullopt};
  const auto lc = attribute("lines-covered"), lv = attribute("lines-valid");
  const auto bc = attribute("branches-covered"), bv = attribute("branches-valid");
  if (lc && lv) s.line = figure(*lc, *lv);
  if (bc && bv && *bv > 0) s.branch = figure(*bc, *bv);
  if (!s.line) throw std::runtime_error(label + ": <coverage> lacks lines-covered/lines-valid");
  return s;
}

}  // namespace

namespace {

// Counts that add up: a tampered or damaged file must not claim more than 100 %.
void check_counts(const std::optional<CoverageFigure>& f, const char* what,
                  const std::string& label) {
  if (!f) return;
  if (!std::isfinite(f->covered) || !std::isfinite(f->total) || !std::isfinite(f->percent) ||
      f->covered > f->total || f->percent < 0 || f->percent > 100) {
    throw std::runtime_error(
        fmt::format("{}: {} coverage {} of {} ({} %) is not a share of its "
                    "total",
                    label, what, f->covered, f->total, f->percent));
  }
}

CoverageSummary parse_any_coverage(const std::string& text, const std::string& label) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw std::runtime_error(label + ": empty coverage file");
  if (text[first] == '{') return parse_json_coverage(text, label);
  if (text[first] == '<') return parse_cobertura(text, label);
  return parse_lcov(text, label);
}

}  // namespace

CoverageSummary parse_coverage(const std::string& text, const std::string& label) {
  CoverageSummary summary = parse_any_coverage(text, label);
  check_counts(summary.line, "line", label);
  check_counts(summary.branch, "branch", label);
  return summary;
}

CoverageSummary read_coverage(const fs::path& path) {
  try {
    return parse_coverage(detail::read_regular_file(path, "coverage data"), path.string());
  } catch (const detail::ReadError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace simverify::framework
