#pragma once
// A results folder as `simverify run` writes it, made in-process from a requirement file of the
// fakes (fake_components.hpp), for the tests of what reads one (gate, report).
#include "fake_components.hpp"

#include <simverify/framework/listener.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include <filesystem>
#include <stdexcept>

namespace simverify::framework::fakes {

// y = x^2 k of `square`: A's worst point is 4 (x = 2), B's 18 (x = 3, k = 2); both pass.
inline constexpr const char* kRecordedPack = R"(requirements:
  - id: A
    title: small squares
    level: unit
    component: square
    conditions: {x: [1, 2]}
    quality: {measure: y, threshold: "<= 10"}
  - id: B
    title: scaled squares
    level: integration
    component: square
    conditions: {x: [1, 3], k: [1, 2]}
    quality: {measure: y, threshold: "<= 20"}
)";

// Runs the requirement file `pack` into the folder `out` and records what the command line
// records: the file as the run's source, and `options.project_file` when set. `series`: the
// run's --series.
inline void record_run(const std::filesystem::path& pack, const std::filesystem::path& out,
                       RunOptions options = {}, SeriesOutput series = SeriesOutput::none) {
  const ComponentRegistry registry = fake_registry();
  const LoadResult loaded = load_requirements({pack}, registry);
  if (!loaded.ok()) throw std::runtime_error(loaded.errors.front().str());
  options.isolation = Isolation::none;
  options.jobs = 1;
  options.sources = {std::filesystem::absolute(pack).string()};
  options.series = series;
  ListenerList listeners;
  listeners.add(make_json_reporter(out, series, &registry));
  (void)Runner(registry, options).run(loaded.requirements, listeners);
}

}  // namespace simverify::framework::fakes
