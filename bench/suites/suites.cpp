#include "suite.hpp"

namespace myriad::bench {

std::vector<Suite> all_suites() {
  return {
      {"core", "packing, range allocator, parallel_for overhead", &run_core_suite},
  };
}

}  // namespace myriad::bench
