#pragma once
// Internal: the safe reading of input files (core/read_file.hpp) under the names the framework
// has always used.
#include <simverify/core/read_file.hpp>
#include <simverify/core/regular_file.hpp>

namespace simverify::framework::detail {

using core::kMaxInputBytes;
using core::kMaxTableBytes;
using core::read_regular_file;
using core::ReadError;
using core::RegularFile;
using core::special_kind;

}  // namespace simverify::framework::detail
