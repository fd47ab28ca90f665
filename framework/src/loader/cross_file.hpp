#pragma once
// Internal: checks that need every requirement file at once: unique ids, dependencies that
// exist, run no later (Alg 11's level order) and form no cycle.
#include <simverify/framework/loader.hpp>

namespace simverify::framework::loader {

void check_cross_file(LoadResult& out);

}  // namespace simverify::framework::loader
