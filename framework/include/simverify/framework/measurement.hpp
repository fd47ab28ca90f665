#pragma once
// What a component measured at one grid point (Def 5.9): named scalars, vectors and time
// series. Quality functions reduce one of them to a number (Def 5.4).
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace simverify::framework {

struct TimeSeries {
  std::vector<double> time;
  std::vector<std::string> names;            // one per column
  std::vector<std::vector<double>> columns;  // columns[j][i] is names[j] at time[i]
};

using Measure = std::variant<double, std::vector<double>, TimeSeries>;

class Measurement {
 public:
  void set(std::string name, Measure value);
  [[nodiscard]] const Measure* find(std::string_view name) const;
  [[nodiscard]] const std::vector<std::pair<std::string, Measure>>& entries() const {
    return entries_;
  }

 private:
  std::vector<std::pair<std::string, Measure>> entries_;
};

}  // namespace simverify::framework
