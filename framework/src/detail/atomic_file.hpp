#pragma once
// Internal: every file the framework writes goes through core's atomic writer.
#include <simverify/core/write_file.hpp>

namespace simverify::framework::detail {

using core::write_atomically;

}  // namespace simverify::framework::detail
