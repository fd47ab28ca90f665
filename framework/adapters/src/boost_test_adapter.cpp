// Requirements as Boost.Test cases (shared library), judged by the native runner.
#include <simverify/adapters/boost_test.hpp>

#include "single_requirement.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

namespace simverify::adapters {
namespace {

using namespace simverify::framework;

}  // namespace

std::string boost_test_name(std::string_view id) {
  std::string name(id);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  return name;
}

std::size_t register_boost_test_requirements(const std::vector<std::filesystem::path>& paths,
                                             const ComponentRegistry& registry,
                                             const RunOptions& options) {
  namespace utf = boost::unit_test;
  auto loaded = detail::load_or_throw(paths, registry);
  std::map<std::string, utf::test_case*> by_id;
  for (const Requirement* r : loaded->ordered) {
    auto body = [loaded, r, &registry, options] {
      const detail::Verdict verdict = detail::run_one(*r, registry, options);
      switch (verdict.status) {
        case Status::passed: BOOST_TEST_MESSAGE(r->id << ": " << verdict.message); break;
        case Status::skipped: BOOST_TEST_MESSAGE(r->id << " skipped: " << verdict.message); break;
        case Status::failed:
        case Status::error: BOOST_ERROR(verdict.message); break;
      }
    };
    // Boost.Test's factory hands back an owning raw pointer that the master suite adopts.
    utf::test_case* tc = utf::make_test_case(body, boost_test_name(r->id), r->location.file,
                                             static_cast<std::size_t>(r->location.line));
    tc->add_label(to_string(r->level));
    // depends_on: Boost.Test skips a case whose dependency failed, as Alg 11 blocks it.
    for (const auto& dep : r->depends_on) {
      if (auto it = by_id.find(dep); it != by_id.end()) tc->depends_on(it->second);
    }
    utf::framework::master_test_suite().add(tc);
    by_id[r->id] = tc;
  }
  return loaded->ordered.size();
}

}  // namespace simverify::adapters
