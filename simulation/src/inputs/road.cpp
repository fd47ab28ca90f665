#include <simverify/simulation/input_signal.hpp>

#include <array>
#include <cctype>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

namespace simverify::simulation {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

int class_index(char iso_class) {
  const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(iso_class)));
  if (c < 'A' || c > 'H') {
    throw std::invalid_argument(std::string("road: ISO 8608 class must be A..H, got '") +
                                iso_class + "'");
  }
  return c - 'A';
}

// Integral of G_d(n) = G0 (n / n0)^-2 over [a, b]: G0 n0^2 (1/a - 1/b).
double band_integral(double reference_psd, double a, double b) {
  return reference_psd * kRoadReferenceFrequency * kRoadReferenceFrequency * (1.0 / a - 1.0 / b);
}

// [0, 1) from the top 53 bits: fully specified, unlike std::uniform_real_distribution whose
// algorithm differs between standard libraries (the profile must not depend on them).
double unit_uniform(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11U) * 0x1.0p-53;
}

// Sum of sinusoids (the harmonic-superposition method commonly used to synthesize ISO 8608
// profiles): the band is split into kRoadSinusoids bins of equal width on a log scale (the
// PSD falls like n^-2, so a linear split would waste most lines on the flat high end); each
// bin contributes one cosine at its geometric centre whose amplitude carries exactly the
// bin's share of the variance, A_i^2 / 2 = integral of G_d over the bin. Summed, the
// variance is the analytic band variance; random phases make the profile Gaussian-like.
class RoadInput final : public InputSignal {
 public:
  RoadInput(int klass, double speed, std::uint64_t seed) : speed_(speed) {
    const double reference_psd = 16e-6 * std::pow(4.0, klass);
    std::mt19937_64 engine(seed);
    const double ratio = std::pow(kRoadBandHigh / kRoadBandLow, 1.0 / kRoadSinusoids);
    double low = kRoadBandLow;
    for (int i = 0; i < kRoadSinusoids; ++i) {
      const double high = (i + 1 == kRoadSinusoids) ? kRoadBandHigh : low * ratio;
      auto& line = lines_[static_cast<std::size_t>(i)];
      line.omega = kTwoPi * std::sqrt(low * high);  // rad/m
      line.amplitude = std::sqrt(2.0 * band_integral(reference_psd, low, high));
      line.phase = kTwoPi * unit_uniform(engine);
      low = high;
    }
  }

  [[nodiscard]] InputSample at(double t) const override {
    const double s = speed_ * t;  // distance travelled [m]
    double z = 0.0;
    double dz_ds = 0.0;
    for (const auto& line : lines_) {
      const double arg = line.omega * s + line.phase;
      z += line.amplitude * std::cos(arg);
      dz_ds -= line.amplitude * line.omega * std::sin(arg);
    }
    return {z, speed_ * dz_ds};
  }

 private:
  struct Line {
    double omega = 0.0;  // spatial angular frequency 2 pi n [rad/m]
    double amplitude = 0.0;
    double phase = 0.0;
  };
  double speed_;
  std::array<Line, kRoadSinusoids> lines_{};
};

}  // namespace

double road_reference_psd(char iso_class) {
  // ISO 8608: the class bounds grow by a factor 4 (a factor 2 in amplitude) per class.
  return 16e-6 * std::pow(4.0, class_index(iso_class));
}

double road_band_variance(char iso_class) {
  return band_integral(road_reference_psd(iso_class), kRoadBandLow, kRoadBandHigh);
}

InputPtr road_input(char iso_class, double speed, std::uint64_t seed) {
  const int klass = class_index(iso_class);
  if (!(speed >= 0.0) || !std::isfinite(speed)) {
    throw std::invalid_argument("road: speed must be finite and >= 0 m/s");
  }
  return std::make_shared<RoadInput>(klass, speed, seed);
}

}  // namespace simverify::simulation
