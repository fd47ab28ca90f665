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

struct ModelEntry {
  ModelFactory factory;
  std::vector<std::string> variants;
};

struct ModelTable {
  ModelTable();
  template <class M>
  void add_plain(const std::string& name);
  template <class M>
  void add_with_variants(const std::string& name, std::vector<std::string> variants);
  [[nodiscard]] const ModelEntry& find(const std::string& name) const;

  std::mutex mutex;
  std::map<std::string, ModelEntry> entries;
};

// Models without variants reject any variant but "".
template <class M>
void ModelTable::add_plain(const std::string& name) {
  entries[name].factory = [name](const std::string& variant) -> std::unique_ptr<Model> {
    if (!variant.empty()) {
      throw std::invalid_argument("model '" + name + "' has no variant '" + variant + "'");
    }
    return std::make_unique<M>();
  };
}

// Models with variants: "" selects the first (default) one; unknown variants list them all.
// M(true) is the second variant, M(false) the first.
template <class M>
void ModelTable::add_with_variants(const std::string& name, std::vector<std::string> variants) {
  entries[name] = {[name, variants](const std::string& variant) -> std::unique_ptr<Model> {
                     const std::string& chosen = variant.empty() ? variants.front() : variant;
                     for (std::size_t i = 0; i < variants.size(); ++i) {
                       if (variants[i] == chosen) return std::make_unique<M>(i == 1);
                     }
                     detail::throw_unknown("variant of model '" + name + "'", variant, variants);
                   },
                   variants};
}

ModelTable::ModelTable() {
  add_plain<models::Arenstorf>("arenstorf");
  add_with_variants<models::BouncingBall>("bouncing_ball", {"event", "contact"});
  add_with_variants<models::ConstrainedPendulum>("constrained_pendulum", {"nonlinear", "linear"});
  add_plain<models::Exponential>("exponential");
  add_plain<models::HarmonicOscillator>("harmonic_oscillator");
  add_plain<models::OrnsteinUhlenbeck>("ornstein_uhlenbeck");
  add_plain<models::QuarterCar>("quarter_car");
  add_plain<models::Robertson>("robertson");
  add_plain<models::SpringMassDamper>("spring_mass_damper");
  add_plain<models::SpringPendulum>("spring_pendulum");
  add_plain<models::VanDerPol>("van_der_pol");
  add_plain<models::VerticalThrow>("vertical_throw");
}

const ModelEntry& ModelTable::find(const std::string& name) const {
  const auto it = entries.find(name);
  if (it == entries.end()) {
    std::vector<std::string> known;
    for (const auto& [n, e] : entries) known.push_back(n);
    detail::throw_unknown("model", name, known);
  }
  return it->second;
}

ModelTable& model_table() {
  static ModelTable r;
  return r;
}

}  // namespace

void register_model(const std::string& name, ModelFactory factory,
                    std::vector<std::string> variants) {
  auto& r = model_table();
  std::scoped_lock lock(r.mutex);
  r.entries[name] = {std::move(factory), std::move(variants)};
}

std::unique_ptr<Model> make_model(const std::string& name, const std::string& variant) {
  auto& r = model_table();
  ModelFactory factory;
  {
    std::scoped_lock lock(r.mutex);
    factory = r.find(name).factory;
  }
  return factory(variant);
}

std::vector<std::string> model_names() {
  auto& r = model_table();
  std::scoped_lock lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [n, e] : r.entries) names.push_back(n);
  return names;
}

std::vector<std::string> model_variants(const std::string& name) {
  auto& r = model_table();
  std::scoped_lock lock(r.mutex);
  return r.find(name).variants;
}

}  // namespace simverify::simulation
