#include "myriad/render/frame/culling_choice.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/device/compute_culling.hpp"

namespace myriad::render {

CullChoice choose_culling(const gpu::Context& ctx, CullRequest request) {
  if (request == CullRequest::kCpu) return {CullPath::kCpu, "requested"};
  const gpu::ComputeCullingSupport support = gpu::compute_culling_support(ctx);
  if (request == CullRequest::kGpu) {
    if (!support.supported)
      throw Error("GPU culling was requested, but the " + support.reason, "culling",
                  "ask for cpu or auto culling");
    return {CullPath::kGpu, "requested"};
  }
  return {support.supported ? CullPath::kGpu : CullPath::kCpu, "auto: " + support.reason};
}

const char* cull_path_name(CullPath path) { return path == CullPath::kCpu ? "cpu" : "gpu"; }

const char* cull_request_name(CullRequest request) {
  switch (request) {
    case CullRequest::kGpu:
      return "gpu";
    case CullRequest::kCpu:
      return "cpu";
    default:
      return "auto";
  }
}

CullRequest parse_cull_request(std::string_view name, const char* field) {
  if (name == "auto") return CullRequest::kAuto;
  if (name == "gpu") return CullRequest::kGpu;
  if (name == "cpu") return CullRequest::kCpu;
  throw Error("unknown culling path '" + std::string(name) + "'", field, "use auto, gpu or cpu");
}

}  // namespace myriad::render
