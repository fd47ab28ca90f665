#pragma once
// Deterministic test doubles for the framework's tests: components that compute, throw, return
// NaN, sleep past a timeout, segfault or abort, and a `simulate` look-alike whose check_axis
// rejects unknown models and methods the way the real one does.
#include <simverify/framework/component.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace simverify::framework::fakes {

inline std::optional<std::string> check_known(std::string_view axis, const Value& v) {
  auto check = [&](std::vector<std::string> known, const char* what) -> std::optional<std::string> {
    if (!v.is_string()) return std::string("expected a ") + what + " name, found " + v.type_name();
    if (std::find(known.begin(), known.end(), v.as_string()) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      return "unknown " + std::string(what) + " '" + v.as_string() + "'" +
             did_you_mean(v.as_string(), known) + "; known: " + list;
    }
    return std::nullopt;
  };
  if (axis == "model") return check({"exponential", "van_der_pol"}, "model");
  if (axis == "method") return check({"ode1", "ode4", "ode45", "rk4"}, "method");
  return std::nullopt;
}

// y = x^2 * k; v = [x, 2x]; s = a time series x*t on t = 0, 0.5, 1.
inline Measurement square(const Condition& c) {
  const double x = c.number_or("x", 1.0);
  const double k = c.number_or("k", 1.0);
  Measurement m;
  m.set("y", x * x * k);
  m.set("v", std::vector<double>{x, 2 * x});
  TimeSeries s;
  s.time = {0.0, 0.5, 1.0};
  s.names = {"s"};
  s.columns = {{0.0, 0.5 * x, x}};
  m.set("s", s);
  return m;
}

inline ComponentRegistry fake_registry() {
  ComponentRegistry r;
  r.add({{"square", "y = k x^2", {"x", "k", "seed"}, {"y", "v", "s"}}, square, nullptr});
  r.add({{"thrower", "throws for negative x", {"x"}, {"y"}},
         [](const Condition& c) {
           const double x = c.number("x");
           if (x < 0) throw std::runtime_error("negative x is not allowed");
           Measurement m;
           m.set("y", x);
           return m;
         },
         nullptr});
  r.add({{"nan", "NaN for x = 2", {"x"}, {"y"}},
         [](const Condition& c) {
           Measurement m;
           m.set("y", c.number("x") == 2 ? std::nan("") : c.number("x"));
           return m;
         },
         nullptr});
  // `started` and `ended` on the monotonic clock, which every process of the machine shares:
  // tests see which points overlapped, whichever worker ran them.
  r.add({{"sleeper", "sleeps `seconds`", {"seconds"}, {"y", "started", "ended"}},
         [](const Condition& c) {
           const auto since_boot = [] {
             return std::chrono::duration<double>(
                        std::chrono::steady_clock::now().time_since_epoch())
                 .count();
           };
           const double started = since_boot();
           std::this_thread::sleep_for(std::chrono::duration<double>(c.number("seconds")));
           Measurement m;
           m.set("y", c.number("seconds"));
           m.set("started", started);
           m.set("ended", since_boot());
           return m;
         },
         nullptr});
  r.add({{"crasher", "segfaults at x = 3, aborts at x = 5", {"x"}, {"y"}},
         [](const Condition& c) {
           const double x = c.number("x");
           if (x == 3) std::raise(SIGSEGV);
           if (x == 5) std::abort();
           Measurement m;
           m.set("y", x);
           return m;
         },
         nullptr});
  r.add({{"crash_at",
          "segfaults at x = segv_at, aborts at x = abort_at",
          {"x", "segv_at", "abort_at"},
          {"y"}},
         [](const Condition& c) {
           const double x = c.number("x");
           if (x == c.number("segv_at")) std::raise(SIGSEGV);
           if (x == c.number("abort_at")) std::abort();
           Measurement m;
           m.set("y", x);
           return m;
         },
         nullptr});
  r.add({{"simulate",
          "simulate look-alike",
          {"model", "method", "h", "tf", "t0", "x0", "u", "p.*", "rtol", "atol", "seed", "events",
           "variant", "sample_time"},
          {"error_end", "error_max", "x_end", "steps", "trajectory", "y.*"}},
         [](const Condition& c) {
           Measurement m;
           m.set("error_end", std::pow(c.number_or("h", 0.1), 4));
           m.set("steps", 1.0 / c.number_or("h", 0.1));
           return m;
         },
         check_known});
  r.add({{"step", "one step", {"model", "method", "h", "t0", "x0", "p.*"}, {"local_error"}},
         [](const Condition& c) {
           Measurement m;
           m.set("local_error", std::pow(c.number_or("h", 0.1), 5));
           return m;
         },
         check_known});
  return r;
}

}  // namespace simverify::framework::fakes
