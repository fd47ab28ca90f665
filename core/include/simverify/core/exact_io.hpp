#pragma once
// Whole reads and writes on a pipe or file descriptor, across short transfers and EINTR: the
// runner's worker protocol and the `command` component's keeper speak fixed-size records.
#include <cstddef>

namespace simverify::core {

// False when the other end closed before `size` bytes came, or on an error.
[[nodiscard]] bool read_exact(int fd, void* data, std::size_t size);
// False when not all `size` bytes could be written.
[[nodiscard]] bool write_all(int fd, const void* data, std::size_t size);

}  // namespace simverify::core
