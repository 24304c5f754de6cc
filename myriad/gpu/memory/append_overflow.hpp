// The overflow word of a GPU pass that appends to fixed-capacity lists (culling passes): how many
// entries found their list full. Such an entry is not written and its list's count is clamped back to
// the capacity, so the draws stay inside their buffers; the word tells the CPU (stats, tests) that
// something was dropped. Zeroed at the start of the pass, copied to host memory after it, read once
// the submission completed.
#pragma once

#include <cstdint>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/host_readback.hpp"

namespace myriad::gpu {

class AppendOverflow {
 public:
  explicit AppendOverflow(const Context& ctx);

  // Bind as a storage buffer holding one uint (`buffer Overflow { uint overflow; }`).
  const Buffer& buffer() const { return device_; }
  // Before the pass, where its other outputs are reset (then after_output_reset covers the fill).
  void record_reset(VkCommandBuffer cmd) const;
  // After the pass's after_cull_dispatch barrier: the word is copied into host memory.
  void record_readback(VkCommandBuffer cmd) const;
  // After the submission completed: entries dropped by the last recorded pass.
  std::uint32_t read() const;

 private:
  Buffer device_;
  HostReadback host_;
};

}  // namespace myriad::gpu
