#pragma once
// Building diagram specs in code for the block-diagram tests (the YAML reader has its own).
#include <simverify/simulation/diagram/diagram_model.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation::diagram::testing {

inline Param number(std::string name, double value) {
  Param p;
  p.name = std::move(name);
  p.values = {value};
  p.rows = p.cols = 1;
  return p;
}

inline Param text(std::string name, std::string value) {
  Param p;
  p.name = std::move(name);
  p.is_text = true;
  p.text = std::move(value);
  return p;
}

inline Param list(std::string name, std::vector<double> values) {
  Param p;
  p.name = std::move(name);
  p.rows = 1;
  p.cols = static_cast<int>(values.size());
  p.values = std::move(values);
  return p;
}

inline Param matrix(std::string name, std::vector<std::vector<double>> rows) {
  Param p;
  p.name = std::move(name);
  p.rows = static_cast<int>(rows.size());
  p.cols = static_cast<int>(rows.front().size());
  for (const auto& r : rows) p.values.insert(p.values.end(), r.begin(), r.end());
  return p;
}

inline BlockSpec block(std::string name, std::string type, std::vector<Param> params = {}) {
  BlockSpec b;
  b.name = std::move(name);
  b.type = std::move(type);
  b.params = std::move(params);
  return b;
}

inline PortRef port(const std::string& text) {
  PortRef ref;
  const auto dot = text.find('.');
  ref.block = text.substr(0, dot);
  if (dot != std::string::npos) ref.port = text.substr(dot + 1);
  return ref;
}

inline ConnectionSpec wire(const std::string& from, const std::string& to) {
  return {port(from), port(to), {}};
}

inline OutputSpec output(std::string name, const std::string& from) {
  return {std::move(name), port(from)};
}

// The outputs of a stateless diagram at t = 0 with its default parameters.
inline Vector outputs_at_start(const DiagramModel& model) {
  const std::vector<double> p = model.default_parameters();
  Context context;
  context.p = p;
  Vector y;
  model.output(0.0, Vector(), context, y);
  return y;
}

}  // namespace simverify::simulation::diagram::testing
