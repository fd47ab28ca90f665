#include <simverify/simulation/method_registry.hpp>

#include "detail/known_names.hpp"
#include "methods/families.hpp"

#include <map>
#include <mutex>

namespace simverify::simulation {
namespace {

struct MethodEntry {
  MethodInfo info;
  StepperFactory factory;
};

struct MethodTable {
  MethodTable();
  std::mutex mutex;
  std::map<std::string, MethodEntry> entries;

  void add(MethodInfo info, StepperFactory factory) {
    auto name = info.name;
    entries[name] = MethodEntry{std::move(info), std::move(factory)};
  }
};

MethodTable::MethodTable() {
  const detail::AddMethod add_method = [this](MethodInfo info, StepperFactory factory) {
    add(std::move(info), std::move(factory));
  };
  detail::add_explicit_methods(add_method);
  detail::add_implicit_methods(add_method);
  detail::add_nystrom_methods(add_method);
}

MethodTable& method_table() {
  static MethodTable r;
  return r;
}

const MethodEntry& find_method(const std::string& name) {
  auto& r = method_table();
  std::scoped_lock lock(r.mutex);
  auto it = r.entries.find(name);
  if (it == r.entries.end()) {
    std::vector<std::string> known;
    for (const auto& [n, e] : r.entries) known.push_back(n);
    detail::throw_unknown("method", name, known);
  }
  return it->second;
}

}  // namespace

void register_method(MethodInfo info, StepperFactory factory) {
  auto& r = method_table();
  std::scoped_lock lock(r.mutex);
  r.add(std::move(info), std::move(factory));
}

const MethodInfo& method_info(const std::string& name) {
  return find_method(name).info;
}

std::unique_ptr<Stepper> make_stepper(const std::string& name) {
  return find_method(name).factory();
}

std::vector<std::string> method_names() {
  auto& r = method_table();
  std::scoped_lock lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [n, e] : r.entries) names.push_back(n);
  return names;
}

}  // namespace simverify::simulation
