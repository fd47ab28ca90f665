#include <simverify/simulation/model_registry.hpp>

#include <simverify/simulation/models/arenstorf.hpp>
#include <simverify/simulation/models/constrained_pendulum.hpp>

#include "detail/known_names.hpp"
#include "models/bouncing_ball.hpp"
#include "models/exponential.hpp"
#include "models/harmonic_oscillator.hpp"
#include "models/ornstein_uhlenbeck.hpp"
#include "models/quarter_car.hpp"
#include "models/robertson.hpp"
#include "models/spring_mass_damper.hpp"
#include "models/spring_pendulum.hpp"
#include "models/van_der_pol.hpp"
#include "models/vertical_throw.hpp"

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

// Models with variants: "" selects the first (default) one; unknown variants list them all.
template <class M>
ModelFactory with_variants(std::string name, std::vector<std::string> variants) {
  return [name = std::move(name),
          variants = std::move(variants)](const std::string& variant) -> std::unique_ptr<Model> {
    const std::string& chosen = variant.empty() ? variants.front() : variant;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      if (variants[i] == chosen) return std::make_unique<M>(i == 1);
    }
    detail::throw_unknown("variant of model '" + name + "'", variant, variants);
  };
}

Registry::Registry() {
  factories["arenstorf"] = plain<models::Arenstorf>();
  // Index 1 selects the alternative: the contact ball, the linear pendulum.
  factories["bouncing_ball"] =
      with_variants<models::BouncingBall>("bouncing_ball", {"event", "contact"});
  factories["constrained_pendulum"] =
      with_variants<models::ConstrainedPendulum>("constrained_pendulum", {"nonlinear", "linear"});
  factories["exponential"] = plain<models::Exponential>();
  factories["harmonic_oscillator"] = plain<models::HarmonicOscillator>();
  factories["ornstein_uhlenbeck"] = plain<models::OrnsteinUhlenbeck>();
  factories["quarter_car"] = plain<models::QuarterCar>();
  factories["robertson"] = plain<models::Robertson>();
  factories["spring_mass_damper"] = plain<models::SpringMassDamper>();
  factories["spring_pendulum"] = plain<models::SpringPendulum>();
  factories["van_der_pol"] = plain<models::VanDerPol>();
  factories["vertical_throw"] = plain<models::VerticalThrow>();
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
