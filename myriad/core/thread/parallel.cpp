// Thread-count control for the loops of parallel.hpp (oneTBB global_control).
#include "myriad/core/thread/parallel.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

namespace myriad {

struct ThreadLimit::Impl {
  explicit Impl(std::size_t threads) : control(tbb::global_control::max_allowed_parallelism, threads) {}
  tbb::global_control control;
};

ThreadLimit::ThreadLimit(std::size_t threads)
    : impl_(std::make_unique<Impl>(threads == 0 ? hardware_threads() : threads)) {}

ThreadLimit::~ThreadLimit() = default;

std::size_t hardware_threads() {
  const int n = tbb::info::default_concurrency();
  return n > 0 ? static_cast<std::size_t>(n) : 1;
}

}  // namespace myriad
