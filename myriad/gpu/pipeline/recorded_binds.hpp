// Pipeline binds counted where they enter the command stream: every gpu::bind / gpu::bind_pipeline
// recorded on this thread while a RecordedBinds is alive counts towards it. Frame figures ("pipeline
// binds for the whole world") come from here, not from each system's own bookkeeping.
#pragma once

#include <cstdint>

#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

// A counting scope on the recording thread. Scopes nest: the innermost one counts, and when it ends
// its counts are added to the one around it. Not movable: the thread's current scope points at it.
class RecordedBinds {
 public:
  RecordedBinds();
  ~RecordedBinds();
  RecordedBinds(const RecordedBinds&) = delete;
  RecordedBinds& operator=(const RecordedBinds&) = delete;

  // vkCmdBindPipeline calls recorded so far in this scope: all, and those of each bind point.
  std::uint64_t pipeline_binds() const { return graphics_ + compute_; }
  std::uint64_t graphics_binds() const { return graphics_; }
  std::uint64_t compute_binds() const { return compute_; }

  // What gpu::bind_pipeline calls for each bind it records (no-op without a scope on this thread).
  static void count(VkPipelineBindPoint point);

 private:
  RecordedBinds* outer_;
  std::uint64_t graphics_ = 0;
  std::uint64_t compute_ = 0;
};

}  // namespace myriad::gpu
