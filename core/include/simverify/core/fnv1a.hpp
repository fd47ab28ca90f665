#pragma once
// FNV-1a, 64 bit: a stable, platform-independent hash of text (std::hash is neither). Spreads
// grid points over shards, fingerprints a plan and derives seeds and noise streams from names;
// it detects accidental differences, it is not a signature.
#include <cstdint>
#include <string_view>

namespace simverify::core {

[[nodiscard]] constexpr std::uint64_t fnv1a(std::string_view text,
                                            std::uint64_t h = 1469598103934665603ULL) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace simverify::core
