#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/tableaux.hpp>

#include "detail/known_names.hpp"
#include "methods/explicit_fixed_stepper.hpp"

#include <map>
#include <mutex>

namespace simverify::simulation {
namespace {

struct Entry {
  MethodInfo info;
  StepperFactory factory;
};

struct Registry {
  Registry();
  std::mutex mutex;
  std::map<std::string, Entry> entries;

  void add(MethodInfo info, StepperFactory factory) {
    auto name = info.name;
    entries[name] = Entry{std::move(info), std::move(factory)};
  }
};

void add_explicit_fixed(Registry& r, const std::string& name, const ButcherTableau& tableau,
                        const std::string& description) {
  r.add({name, StepControl::fixed, tableau.order, false, description},
        [&tableau] { return std::make_unique<detail::ExplicitFixedStepper>(tableau); });
}

Registry::Registry() {
  add_explicit_fixed(*this, "ode1", tableaux::euler(), "explicit Euler (Simulink ode1)");
  add_explicit_fixed(*this, "euler", tableaux::euler(), "explicit Euler");
  add_explicit_fixed(*this, "ode2", tableaux::heun(), "Heun (Simulink ode2)");
  add_explicit_fixed(*this, "heun", tableaux::heun(), "Heun");
  add_explicit_fixed(*this, "ode4", tableaux::rk4(), "classical Runge-Kutta (Simulink ode4)");
  add_explicit_fixed(*this, "rk4", tableaux::rk4(), "classical Runge-Kutta");
}

Registry& registry() {
  static Registry r;
  return r;
}

const Entry& find(const std::string& name) {
  auto& r = registry();
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
  auto& r = registry();
  std::scoped_lock lock(r.mutex);
  r.add(std::move(info), std::move(factory));
}

const MethodInfo& method_info(const std::string& name) { return find(name).info; }

std::unique_ptr<Stepper> make_stepper(const std::string& name) { return find(name).factory(); }

std::vector<std::string> method_names() {
  auto& r = registry();
  std::scoped_lock lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [n, e] : r.entries) names.push_back(n);
  return names;
}

}  // namespace simverify::simulation
