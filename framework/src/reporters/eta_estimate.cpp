#include "reporters/eta_estimate.hpp"

#include <algorithm>

namespace simverify::framework {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// Seconds added to both sides of the calibration ratio: at the start, when little work with a
// prior is done, the earlier run's costs are taken as they are instead of as a noisy ratio.
constexpr double kCalibrationDamping = 1.0;

}  // namespace

EtaEstimate::EtaEstimate(std::vector<PlannedRequirement> order,
                         std::map<std::string, double> earlier) {
  for (auto& planned : order) {
    Entry e;
    if (const auto it = earlier.find(planned.id); it != earlier.end() && it->second >= 0) {
      e.prior = it->second * static_cast<double>(planned.points);
    }
    e.planned = std::move(planned);
    index_.emplace(e.planned.id, entries_.size());
    entries_.push_back(std::move(e));
  }
}

void EtaEstimate::requirement_started(const std::string& id, double now) {
  const auto it = index_.find(id);
  current_ = it == index_.end() ? kNone : it->second;
  points_done_ = 0;
  if (current_ != kNone) entries_[current_].started = now;
}

void EtaEstimate::progress(double points_done) {
  points_done_ = points_done;
}

void EtaEstimate::requirement_finished(const std::string& id, double now) {
  const auto it = index_.find(id);
  if (it == index_.end()) return;
  Entry& e = entries_[it->second];
  e.finished = true;
  e.seconds = e.started >= 0 ? now - e.started : 0;
  points_total_ += static_cast<double>(e.planned.points);
  if (it->second == current_) current_ = kNone;
  points_done_ = 0;
}

double EtaEstimate::fraction_done(std::size_t i) const {
  const Entry& e = entries_[i];
  if (e.finished) return 1;
  if (i != current_ || e.planned.points == 0) return 0;
  return std::clamp(points_done_ / static_cast<double>(e.planned.points), 0.0, 1.0);
}

double EtaEstimate::seconds_left(double now) const {
  // Time spent on work with a prior against what the prior says it should have cost.
  double spent_known = 0, prior_known = 0, spent = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    const bool is_current = i == current_;
    const double seconds = is_current ? now - e.started : e.seconds;
    spent += seconds;
    if (e.prior >= 0 && (e.finished || is_current)) {
      spent_known += seconds;
      prior_known += e.prior * fraction_done(i);
    }
  }
  const double scale = (spent_known + kCalibrationDamping) / (prior_known + kCalibrationDamping);
  const double points_done = points_total_ + points_done_;
  const double per_point = points_done > 0 ? spent / points_done : 0;

  double left = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.finished) continue;
    const bool is_current = i == current_;
    const double fraction = fraction_done(i);
    const auto remaining = static_cast<double>(e.planned.points) * (1 - fraction);
    if (e.prior >= 0) {
      left += scale * e.prior * (1 - fraction);
    } else if (is_current && fraction > 0) {
      left += (now - e.started) * (1 - fraction) / fraction;  // its own cost per point
    } else {
      left += per_point * remaining;
    }
  }
  return left;
}

bool EtaEstimate::informed() const {
  return std::all_of(entries_.begin(), entries_.end(),
                     [](const Entry& e) { return e.finished || e.prior >= 0; });
}

}  // namespace simverify::framework
