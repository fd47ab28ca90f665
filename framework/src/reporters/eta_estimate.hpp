#pragma once
// Internal: the console's ETA. Grid points differ in cost by orders of magnitude (a unit
// check takes microseconds, a system point with a random road seconds), so counting points
// misleads. Each requirement's cost per point measured in an earlier run into the same results
// folder is the prior; the ratio of time spent to prior cost of the work done so far scales it
// to this machine and load. Requirements without a prior count at the cost per point measured
// so far in this run (within a requirement once it has started).
#include <simverify/framework/listener.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace simverify::framework {

class EtaEstimate {
 public:
  // `order`: the requirements as they will run; `earlier`: id -> seconds per point measured
  // in an earlier run (empty when there was none).
  EtaEstimate(std::vector<PlannedRequirement> order, std::map<std::string, double> earlier);

  // Times are seconds since the run started.
  void requirement_started(const std::string& id, double now);
  // Points of the current requirement done, fractions of those under way included.
  void progress(double points_done);
  void requirement_finished(const std::string& id, double now);

  [[nodiscard]] double seconds_left(double now) const;
  // Whether every remaining requirement has a prior (the ETA is then more than a guess).
  [[nodiscard]] bool informed() const;

 private:
  struct Entry {
    PlannedRequirement planned;
    double prior = -1;    // seconds for the whole requirement, < 0 when unknown
    double seconds = 0;   // spent in it so far
    double started = -1;  // < 0 until it starts
    bool finished = false;
  };
  // Of entry i: 1 when finished, its points done when current, else 0.
  [[nodiscard]] double fraction_done(std::size_t i) const;

  std::vector<Entry> entries_;
  std::map<std::string, std::size_t> index_;
  std::size_t current_ = static_cast<std::size_t>(-1);
  double points_done_ = 0;   // of the current requirement
  double points_total_ = 0;  // finished requirements' points plus points_done_
};

}  // namespace simverify::framework
