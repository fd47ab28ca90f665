#include "detail/run_identity.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace simverify::framework::detail {

std::string current_commit() {
  if (const char* ci = std::getenv("CI_COMMIT_SHA"); ci && *ci)
    return std::string(ci).substr(0, 12);
  // Best effort: outside a checkout (an installed simverify run elsewhere) there is none.
  FILE* pipe = ::popen("git rev-parse --short=12 HEAD 2>/dev/null", "r");
  if (!pipe) return {};
  char buffer[64] = {};
  std::string out;
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string utc_timestamp() {
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
    char* end = nullptr;
    const long long fixed = std::strtoll(epoch, &end, 10);
    if (end && *end == '\0') now = static_cast<std::time_t>(fixed);
  }
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", utc);
}

}  // namespace simverify::framework::detail
