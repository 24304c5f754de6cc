// Bring your own device: what an application enabled on its own VkDevice, checked against what Myriad
// needs (context.hpp: ExternalDevice, missing_for_external_device).
#include <algorithm>
#include <string>
#include <vector>

#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {
namespace {

// Copies the feature flags of one struct of an application's VkDeviceCreateInfo::pNext chain into
// `enabled` (the core 1.0–1.3 structs and the per-feature structs promoted into them).
void read_enabled_features(const VkBaseInStructure* s, FeatureChain& enabled) {
  switch (s->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
      enabled.core.features = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
      void* next = enabled.v11.pNext;
      enabled.v11 = *reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(s);
      enabled.v11.pNext = next;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
      void* next = enabled.v12.pNext;
      enabled.v12 = *reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
      enabled.v12.pNext = next;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
      void* next = enabled.v13.pNext;
      enabled.v13 = *reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
      enabled.v13.pNext = next;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
      enabled.v11.shaderDrawParameters |=
          reinterpret_cast<const VkPhysicalDeviceShaderDrawParametersFeatures*>(s)->shaderDrawParameters;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
      enabled.v12.bufferDeviceAddress |=
          reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(s)->bufferDeviceAddress;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
      enabled.v12.scalarBlockLayout |=
          reinterpret_cast<const VkPhysicalDeviceScalarBlockLayoutFeatures*>(s)->scalarBlockLayout;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
      enabled.v12.runtimeDescriptorArray |=
          reinterpret_cast<const VkPhysicalDeviceDescriptorIndexingFeatures*>(s)->runtimeDescriptorArray;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
      enabled.v13.dynamicRendering |=
          reinterpret_cast<const VkPhysicalDeviceDynamicRenderingFeatures*>(s)->dynamicRendering;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
      enabled.v13.synchronization2 |=
          reinterpret_cast<const VkPhysicalDeviceSynchronization2Features*>(s)->synchronization2;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
      enabled.v13.maintenance4 |=
          reinterpret_cast<const VkPhysicalDeviceMaintenance4Features*>(s)->maintenance4;
      break;
    default:
      break;
  }
}

}  // namespace

std::vector<std::string> missing_for_external_device(const ExternalDevice& device) {
  std::vector<std::string> missing;
  if (!device.instance || !device.physical_device || !device.device || !device.queue) {
    missing.emplace_back("instance, physical device, device and queue handles (one is VK_NULL_HANDLE)");
    return missing;
  }
  if (device.instance_api_version < VK_API_VERSION_1_3) missing.emplace_back("instance apiVersion 1.3");
  DeviceCapabilities caps = read_capabilities(device.physical_device);
  if (caps.properties.apiVersion < VK_API_VERSION_1_3) missing.emplace_back("Vulkan 1.3 device");

  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical_device, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fams(families);
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical_device, &families, fams.data());
  constexpr VkQueueFlags kNeeded = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  if (device.queue_family >= families || (fams[device.queue_family].queueFlags & kNeeded) != kNeeded) {
    missing.emplace_back("graphics and compute on queue family " + std::to_string(device.queue_family));
  }

  FeatureChain enabled;
  if (device.enabled_core_features) enabled.core.features = *device.enabled_core_features;
  for (auto* s = static_cast<const VkBaseInStructure*>(device.enabled_features_chain); s; s = s->pNext) {
    read_enabled_features(s, enabled);
  }
  // Extensions count when the application enabled them, properties when the device has them.
  caps.extensions = device.enabled_extensions;
  for (const FeatureInfo& f : required_features()) {
    if (!feature_supported(f.name, enabled, caps)) missing.emplace_back(f.name);
  }
  return missing;
}

}  // namespace myriad::gpu
