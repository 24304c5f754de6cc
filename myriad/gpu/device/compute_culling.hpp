// Whether a device can run the GPU culling paths (compute culling into append lists, drawn by indirect
// draws), decided in one place. What those paths use beyond plain drawing:
//   - a queue with compute: the culling dispatches run on the frame's one queue;
//   - drawIndirectFirstInstance: the lists start part-way into a pool's list buffer (odd LODs grow down
//     from their region's end), so indirect draws carry a non-zero first_instance;
//   - subgroupBallot: the culling shaders aggregate their list appends per subgroup (one atomic each).
// Storage-buffer atomics in compute shaders are core Vulkan. multiDrawIndirect and drawIndirectCount are
// used by systems that have no CPU path (voxel terrain, the smoke test), so they do not decide here.
// Every one of these is also in the Context's required set today, so on a device Myriad accepts the
// answer is yes unless ContextOptions::pretend_missing (MYRIAD_PRETEND_MISSING) withholds one: the hook
// that lets tests and users exercise the CPU fallback.
#pragma once

#include <span>
#include <string>

#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {

struct ComputeCullingSupport {
  bool supported = false;
  std::string reason;  // "device has compute culling", or "device lacks <first missing need>"
};

// The feature names (features.hpp) compute culling needs, in the order they are checked.
std::span<const char* const> compute_culling_features();

ComputeCullingSupport compute_culling_support(const Context& ctx);

}  // namespace myriad::gpu
