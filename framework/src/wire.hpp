#pragma once
// Internal: a compact binary encoding of one evaluated grid point, sent from a worker process
// to the runner over a pipe. Host byte order: both ends are the same executable.
#include <simverify/framework/results.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::framework::wire {

// Appends one record: [u32 size][u64 position][point].
void append(std::string& buffer, std::size_t position, const PointResult& point);

struct Decoded {
  std::size_t position = 0;
  PointResult point;
};

// Decodes the record at the front of `buffer` and removes it; nothing while incomplete.
// Throws std::runtime_error on a malformed record.
[[nodiscard]] std::optional<Decoded> take(std::string& buffer, std::size_t& offset);

}  // namespace simverify::framework::wire
