#pragma once
// How far the grid point being evaluated has got, for the console's progress bar and ETA
// while a long point runs (a 60 s simulation, a Monte Carlo study): a component reports the
// fraction done, e.g. simulated time over the horizon or runs finished over runs. The runner
// reads it every tick from memory it shares with its workers.
//
// Cheap (a relaxed atomic store) and a no-op where nobody reads it (tests, other programs).
namespace simverify::framework {

// The fraction of the current point done, in [0, 1] (clamped), within the innermost
// PointProgressSpan.
void report_point_progress(double fraction);

// Whether anything reads the reports of this thread's point (a worker of a run with more than
// one job or with process isolation): where nothing does, a component may skip the work of
// reporting, such as a callback after every step.
[[nodiscard]] bool point_progress_read();

// Work that is one part of a point's work: reports made while it lives are mapped into
// [from, to] of the enclosing span (Monte Carlo run i of n: [i/n, (i+1)/n], so the simulation
// inside reports its own time fraction and the study's fraction follows).
class PointProgressSpan {
 public:
  PointProgressSpan(double from, double to);
  ~PointProgressSpan();
  PointProgressSpan(const PointProgressSpan&) = delete;
  PointProgressSpan& operator=(const PointProgressSpan&) = delete;

 private:
  double saved_from_, saved_to_;
};

}  // namespace simverify::framework
