#pragma once
// Internal: FNV-1a, 64 bit — a stable, platform-independent hash of text (std::hash is
// neither). Used to spread grid points over shards and to fingerprint a plan; it detects
// accidental differences, it is not a signature.
#include <cstdint>
#include <string_view>

namespace simverify::framework::detail {

[[nodiscard]] constexpr std::uint64_t fnv1a(std::string_view text,
                                            std::uint64_t h = 1469598103934665603ULL) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace simverify::framework::detail
