// The device features Myriad needs (required) or can use (optional), named as in the Vulkan spec.
// One table drives the check, the enabling at device creation and `myriad info`; a device missing a
// required feature is refused with an error naming every missing one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

// Every feature struct Myriad queries, chained for vkGetPhysicalDeviceFeatures2 / VkDeviceCreateInfo.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};

  FeatureChain();
  FeatureChain(const FeatureChain&) = delete;  // the pNext chain points into this object
  FeatureChain& operator=(const FeatureChain&) = delete;
};

enum class FeatureKind { kFeature, kExtension, kProperty };

struct FeatureInfo {
  const char* name;  // spec name: "drawIndirectCount", "VK_KHR_push_descriptor", "timestamps"
  FeatureKind kind;
  const char* why;  // what Myriad uses it for
};

// What one physical device offers, read once.
struct DeviceCapabilities {
  std::vector<std::string> extensions;
  VkPhysicalDeviceProperties properties{};
  std::uint32_t graphics_queue_timestamp_bits = 0;
  std::uint32_t subgroup_size = 0;
  VkSubgroupFeatureFlags subgroup_operations = 0;
  VkShaderStageFlags subgroup_stages = 0;
  bool has_extension(const char* name) const;
};

// Properties, extensions and graphics-queue facts of `device`.
DeviceCapabilities read_capabilities(VkPhysicalDevice device);

std::span<const FeatureInfo> required_features();
std::span<const FeatureInfo> optional_features();

// True when `name` (a required or optional feature's name) is supported by the device.
bool feature_supported(const char* name, const FeatureChain& supported, const DeviceCapabilities& caps);
// Switches the named required feature on in `enabled` (extensions are enabled separately).
void enable_feature(const char* name, FeatureChain& enabled);
// True when `name` names an entry in either table.
bool is_known_feature(const std::string& name);

}  // namespace myriad::gpu
