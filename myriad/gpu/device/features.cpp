#include "myriad/gpu/device/features.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace myriad::gpu {
namespace {

constexpr std::array kRequired = {
    FeatureInfo{"dynamicRendering", FeatureKind::kFeature, "render passes without VkRenderPass objects"},
    FeatureInfo{"synchronization2", FeatureKind::kFeature, "barrier helpers"},
    FeatureInfo{"maintenance4", FeatureKind::kFeature, "LocalSizeId in compute shaders (SPIR-V 1.6)"},
    FeatureInfo{"bufferDeviceAddress", FeatureKind::kFeature, "arenas larger than maxStorageBufferRange"},
    FeatureInfo{"drawIndirectCount", FeatureKind::kFeature, "GPU-driven draw counts"},
    FeatureInfo{"multiDrawIndirect", FeatureKind::kFeature, "many indirect draws per call"},
    FeatureInfo{"drawIndirectFirstInstance", FeatureKind::kFeature, "per-draw instance offsets"},
    FeatureInfo{"shaderDrawParameters", FeatureKind::kFeature, "gl_DrawID in vertex shaders"},
    FeatureInfo{"samplerFilterMinmax", FeatureKind::kFeature, "MIN-reduction depth pyramid"},
    FeatureInfo{"shaderInt64", FeatureKind::kFeature, "device addresses in shaders"},
    FeatureInfo{"shaderClipDistance", FeatureKind::kFeature, "world slice by clip distance (no discard)"},
    FeatureInfo{"scalarBlockLayout", FeatureKind::kFeature, "buffer layouts shared with C++ structs"},
    FeatureInfo{"VK_KHR_push_descriptor", FeatureKind::kExtension, "descriptor-free binding per dispatch"},
    FeatureInfo{"subgroupBallot", FeatureKind::kProperty, "subgroup-aggregated atomics in culling"},
};

constexpr std::array kOptional = {
    FeatureInfo{"descriptorIndexing", FeatureKind::kFeature, "bindless textures (fast path)"},
    FeatureInfo{"runtimeDescriptorArray", FeatureKind::kFeature, "bindless textures (fast path)"},
    FeatureInfo{"VK_EXT_mesh_shader", FeatureKind::kExtension, "mesh shading (fast path)"},
    FeatureInfo{"timestamps", FeatureKind::kProperty, "GPU timings in stats and benchmarks"},
};

// Pointer to the VkBool32 for a core/1.1/1.2/1.3 feature name, or nullptr.
VkBool32* find_bool(const char* name, FeatureChain& c) {
  struct Entry {
    const char* name;
    VkBool32* ptr;
  };
  const Entry entries[] = {
      {"dynamicRendering", &c.v13.dynamicRendering},
      {"synchronization2", &c.v13.synchronization2},
      {"maintenance4", &c.v13.maintenance4},
      {"bufferDeviceAddress", &c.v12.bufferDeviceAddress},
      {"drawIndirectCount", &c.v12.drawIndirectCount},
      {"multiDrawIndirect", &c.core.features.multiDrawIndirect},
      {"drawIndirectFirstInstance", &c.core.features.drawIndirectFirstInstance},
      {"shaderDrawParameters", &c.v11.shaderDrawParameters},
      {"samplerFilterMinmax", &c.v12.samplerFilterMinmax},
      {"shaderInt64", &c.core.features.shaderInt64},
      {"shaderClipDistance", &c.core.features.shaderClipDistance},
      {"scalarBlockLayout", &c.v12.scalarBlockLayout},
      {"descriptorIndexing", &c.v12.descriptorIndexing},
      {"runtimeDescriptorArray", &c.v12.runtimeDescriptorArray},
      {"geometryShader", &c.core.features.geometryShader},
      {"sparseBinding", &c.core.features.sparseBinding},
      {"descriptorBindingPartiallyBound", &c.v12.descriptorBindingPartiallyBound},
  };
  for (const Entry& e : entries) {
    if (std::strcmp(e.name, name) == 0) return e.ptr;
  }
  return nullptr;
}

const FeatureInfo* find_info(const char* name) {
  for (const FeatureInfo& f : kRequired) {
    if (std::strcmp(f.name, name) == 0) return &f;
  }
  for (const FeatureInfo& f : kOptional) {
    if (std::strcmp(f.name, name) == 0) return &f;
  }
  return nullptr;
}

}  // namespace

FeatureChain::FeatureChain() {
  core.pNext = &v11;
  v11.pNext = &v12;
  v12.pNext = &v13;
}

bool DeviceCapabilities::has_extension(const char* name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

std::span<const FeatureInfo> required_features() { return kRequired; }
std::span<const FeatureInfo> optional_features() { return kOptional; }

bool is_known_feature(const std::string& name) {
  FeatureChain probe;
  return find_info(name.c_str()) != nullptr || find_bool(name.c_str(), probe) != nullptr;
}

bool feature_supported(const char* name, const FeatureChain& supported, const DeviceCapabilities& caps) {
  if (std::strncmp(name, "VK_", 3) == 0) return caps.has_extension(name);
  if (std::strcmp(name, "timestamps") == 0) {
    return caps.properties.limits.timestampComputeAndGraphics && caps.graphics_queue_timestamp_bits > 0 &&
           caps.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
  }
  if (std::strcmp(name, "subgroupBallot") == 0) {
    return (caps.subgroup_operations & VK_SUBGROUP_FEATURE_BALLOT_BIT) != 0 &&
           (caps.subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  VkBool32* flag = find_bool(name, const_cast<FeatureChain&>(supported));
  return flag != nullptr && *flag == VK_TRUE;
}

void enable_feature(const char* name, FeatureChain& enabled) {
  if (VkBool32* flag = find_bool(name, enabled)) *flag = VK_TRUE;
}

DeviceCapabilities read_capabilities(VkPhysicalDevice device) {
  DeviceCapabilities caps;
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(device, &props);
  caps.properties = props.properties;
  caps.subgroup_size = subgroup.subgroupSize;
  caps.subgroup_operations = subgroup.supportedOperations;
  caps.subgroup_stages = subgroup.supportedStages;

  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, exts.data());
  for (const auto& e : exts) caps.extensions.emplace_back(e.extensionName);

  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fams(families);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &families, fams.data());
  for (const auto& f : fams) {
    if ((f.queueFlags & VK_QUEUE_GRAPHICS_BIT) && (f.queueFlags & VK_QUEUE_COMPUTE_BIT)) {
      caps.graphics_queue_timestamp_bits = f.timestampValidBits;
      break;
    }
  }
  return caps;
}

}  // namespace myriad::gpu
