// A user of the installed framework: registers its own component, loads requirements from a
// string, runs them with the framework's Runner and checks the verdicts. Exit 0 when the
// framework behaves as promised; 1 with a message otherwise.
#include <simverify/framework/component.hpp>
#include <simverify/framework/listener.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace sf = simverify::framework;

namespace {

// The "system under test": sqrt by Newton's method with a given number of iterations.
sf::Component newton_sqrt() {
  sf::Component component;
  component.info = {"newton_sqrt", "sqrt(a) by n Newton steps from 1", {"a", "n"}, {"error"}};
  component.evaluate = [](const sf::Condition& condition) {
    const double a = condition.number("a");
    const int n = static_cast<int>(condition.number("n"));
    double x = 1.0;
    for (int i = 0; i < n; ++i) x = 0.5 * (x + a / x);
    sf::Measurement measurement;
    measurement.set("error", std::abs(x - std::sqrt(a)));
    return measurement;
  };
  return component;
}

const char* const requirements_text = R"(requirements:
  - id: CONSUMER-NEWTON-CONVERGES
    title: Six Newton steps reach 1e-9 on [1, 10]
    level: unit
    component: newton_sqrt
    conditions:
      a: {linspace: [1.0, 10.0, 4]}
      n: 6
    quality: {measure: error, threshold: "<= 1e-9"}
  - id: CONSUMER-ONE-STEP-IS-NOT-ENOUGH
    title: One Newton step does not reach 1e-9 (must fail)
    level: integration
    component: newton_sqrt
    conditions:
      a: [2.0, 9.0]
      n: 1
    quality: {measure: error, threshold: "<= 1e-9"}
)";

struct Collector final : sf::RunListener {
  std::vector<std::pair<std::string, sf::Status>> verdicts;
  std::size_t points = 0;
  void point_finished(const sf::Requirement&, const sf::PointResult&) override { ++points; }
  void requirement_finished(const sf::RequirementResult& result) override {
    verdicts.emplace_back(result.requirement->id, result.status);
  }
};

int fail(const std::string& message) {
  std::cerr << "consumer: " << message << '\n';
  return 1;
}

}  // namespace

int main() {
  sf::ComponentRegistry registry;
  registry.add(newton_sqrt());

  sf::LoadResult loaded;
  sf::parse_requirements(requirements_text, "consumer.yaml", registry, loaded);
  for (const auto& error : loaded.errors) std::cerr << error.str() << '\n';
  if (!loaded.ok()) return fail("requirements did not load");
  if (loaded.requirements.size() != 2) {
    return fail("expected 2 requirements, got " + std::to_string(loaded.requirements.size()));
  }

  sf::RunOptions options;
  options.fail_fast = sf::FailFast::none;  // run the failing level too
  options.jobs = 1;
  sf::Runner runner(registry, options);
  Collector collector;
  const sf::RunSummary summary = runner.run(loaded.requirements, collector);

  if (collector.verdicts.size() != 2) return fail("expected 2 verdicts");
  if (collector.points != 6)
    return fail("expected 6 grid points, got " + std::to_string(collector.points));
  if (collector.verdicts[0].second != sf::Status::passed) {
    return fail("CONSUMER-NEWTON-CONVERGES should pass");
  }
  if (collector.verdicts[1].second != sf::Status::failed) {
    return fail("CONSUMER-ONE-STEP-IS-NOT-ENOUGH should fail");
  }
  if (summary.releasable || summary.passed != 1 || summary.failed != 1) {
    return fail("summary should be 1 passed, 1 failed, not releasable");
  }
  std::cout << "consumer: simverify::framework found, linked and ran: 1 passed, 1 failed, "
               "not releasable (as expected)\n";
  return 0;
}
