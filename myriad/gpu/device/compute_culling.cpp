#include "myriad/gpu/device/compute_culling.hpp"

#include <array>
#include <vector>

namespace myriad::gpu {
namespace {

constexpr std::array<const char*, 2> kNeeds = {"drawIndirectFirstInstance", "subgroupBallot"};

bool queue_has_compute(const Context& ctx) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device(), &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device(), &count, families.data());
  return ctx.queue_family() < count && (families[ctx.queue_family()].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0;
}

}  // namespace

std::span<const char* const> compute_culling_features() { return kNeeds; }

ComputeCullingSupport compute_culling_support(const Context& ctx) {
  if (!queue_has_compute(ctx)) return {false, "device lacks compute on its queue"};
  FeatureChain supported;
  vkGetPhysicalDeviceFeatures2(ctx.physical_device(), &supported.core);
  for (const char* name : kNeeds) {
    if (ctx.pretends_missing(name) || !feature_supported(name, supported, ctx.capabilities()))
      return {false, std::string("device lacks ") + name};
  }
  return {true, "device has compute culling"};
}

}  // namespace myriad::gpu
