// Which culling path a scene runs (SPEC G7): the GPU's compute culling, or the CPU's (for the systems
// that have one: the plant field's offline quadtrees and batched instanced draws). `auto` takes the GPU
// where the device has what compute culling needs (gpu::compute_culling_support), else the CPU; an
// explicit request is kept, and asking for the GPU on a device without it is an error, not a silent
// fallback.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "myriad/gpu/device/context.hpp"

namespace myriad::render {

enum class CullPath : std::uint8_t { kGpu, kCpu };
enum class CullRequest : std::uint8_t { kAuto, kGpu, kCpu };

struct CullChoice {
  CullPath path = CullPath::kGpu;
  // "requested", "auto: device has compute culling", "auto: device lacks drawIndirectFirstInstance".
  std::string reason;
};

// Throws myriad::Error when kGpu is requested and the device lacks what compute culling needs.
CullChoice choose_culling(const gpu::Context& ctx, CullRequest request);

const char* cull_path_name(CullPath path);           // "gpu", "cpu"
const char* cull_request_name(CullRequest request);  // "auto", "gpu", "cpu"
// "auto", "gpu" or "cpu"; throws myriad::Error naming `field` for anything else.
CullRequest parse_cull_request(std::string_view name, const char* field);

}  // namespace myriad::render
