// The reference text of a GPU suite's wall-clock times: on a CPU device (lavapipe) they are CPU emulation
// of the GPU, and every such figure says so with the device's name.
#pragma once

#include <string>

#include "myriad/gpu/device/context.hpp"

namespace myriad::bench {

inline std::string wall_clock_label(const gpu::Context& ctx) {
  return ctx.is_cpu_device() ? "wall clock, CPU emulation (" + ctx.device_name() + ")"
                             : "wall clock (" + ctx.device_name() + ")";
}

}  // namespace myriad::bench
