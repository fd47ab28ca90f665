#include <simverify/simulation/model_registry.hpp>

#include "detail/known_names.hpp"
#include "models/exponential.hpp"

#include <map>
#include <mutex>
#include <stdexcept>

namespace simverify::simulation {
namespace {

struct Registry {
  Registry();
  std::mutex mutex;
  std::map<std::string, ModelFactory> factories;
};

// Models without variants reject any variant but "".
template <class M>
ModelFactory plain() {
  return [](const std::string& variant) -> std::unique_ptr<Model> {
    if (!variant.empty()) {
      throw std::invalid_argument("model '" + M().info().name + "' has no variant '" + variant +
                                  "'");
    }
    return std::make_unique<M>();
  };
}

Registry::Registry() {
  factories["exponential"] = plain<models::Exponential>();
}

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_model(const std::string& name, ModelFactory factory) {
  auto& r = registry();
  std::scoped_lock lock(r.mutex);
  r.factories[name] = std::move(factory);
}

std::unique_ptr<Model> make_model(const std::string& name, const std::string& variant) {
  auto& r = registry();
  ModelFactory factory;
  {
    std::scoped_lock lock(r.mutex);
    auto it = r.factories.find(name);
    if (it == r.factories.end()) {
      std::vector<std::string> known;
      for (const auto& [n, f] : r.factories) known.push_back(n);
      detail::throw_unknown("model", name, known);
    }
    factory = it->second;
  }
  return factory(variant);
}

std::vector<std::string> model_names() {
  auto& r = registry();
  std::scoped_lock lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [n, f] : r.factories) names.push_back(n);
  return names;
}

}  // namespace simverify::simulation
