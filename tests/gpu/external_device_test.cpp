// Bring your own device: a gpu::Context over an application's instance, device and queue takes no
// ownership, checks what Myriad needs (naming each missing feature and extension) and works like an
// owning context.
#include <string>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gpu/memory/buffer.hpp"

namespace myriad::test {
namespace {

class ExternalDeviceTest : public GpuTest {
 protected:
  // The fixture's device described as an application would: every required feature enabled.
  gpu::ExternalDevice describe(const gpu::FeatureChain& enabled) {
    gpu::ExternalDevice d;
    d.instance = ctx().instance();
    d.instance_api_version = VK_API_VERSION_1_3;
    d.physical_device = ctx().physical_device();
    d.device = ctx().device();
    d.queue = ctx().queue();
    d.queue_family = ctx().queue_family();
    d.enabled_features_chain = &enabled.core;
    for (const gpu::FeatureInfo& f : gpu::required_features())
      if (f.kind == gpu::FeatureKind::kExtension) d.enabled_extensions.emplace_back(f.name);
    return d;
  }
  static void enable_required(gpu::FeatureChain& chain) {
    for (const gpu::FeatureInfo& f : gpu::required_features())
      if (f.kind == gpu::FeatureKind::kFeature) gpu::enable_feature(f.name, chain);
  }
};

TEST_F(ExternalDeviceTest, AdoptsTheApplicationsDeviceWithoutOwningIt) {
  gpu::FeatureChain enabled;
  enable_required(enabled);
  const gpu::ExternalDevice external = describe(enabled);
  EXPECT_TRUE(gpu::missing_for_external_device(external).empty());
  std::vector<std::uint32_t> values(4096);
  for (std::uint32_t i = 0; i < values.size(); ++i) values[i] = i * 2654435761u;
  {
    gpu::ContextOptions options;
    options.buffer_guards = true;
    gpu::Context adopted(external, options);
    EXPECT_FALSE(adopted.owns_device());
    EXPECT_EQ(adopted.device(), ctx().device());
    EXPECT_EQ(adopted.device_name(), ctx().device_name());
    gpu::Buffer buf(adopted, values.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
    gpu::upload(adopted, buf, std::span<const std::uint32_t>(values));
    EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(adopted, buf, values.size()), values);
    EXPECT_EQ(adopted.validation_message_count(), 0u);
  }
  // The device and instance outlive the adopted context: the owner still works on them.
  gpu::Buffer buf(ctx(), values.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                  gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), buf, std::span<const std::uint32_t>(values));
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), buf, values.size()), values);
}

TEST_F(ExternalDeviceTest, CountsValidationMessagesWhenAsked) {
  gpu::FeatureChain enabled;
  enable_required(enabled);
  gpu::ExternalDevice external = describe(enabled);
  external.count_validation_messages = true;  // the fixture's instance has VK_EXT_debug_utils
  gpu::Context adopted(external, gpu::ContextOptions{});
  EXPECT_TRUE(adopted.validation_enabled());
  EXPECT_EQ(adopted.validation_message_count(), 0u);
}

TEST_F(ExternalDeviceTest, NamesEveryMissingFeatureAndExtension) {
  gpu::FeatureChain enabled;
  enable_required(enabled);
  enabled.v13.dynamicRendering = VK_FALSE;
  enabled.v12.drawIndirectCount = VK_FALSE;
  enabled.core.features.multiDrawIndirect = VK_FALSE;
  gpu::ExternalDevice external = describe(enabled);
  external.enabled_extensions.clear();  // VK_KHR_push_descriptor not enabled
  const std::vector<std::string> missing = gpu::missing_for_external_device(external);
  EXPECT_EQ(missing, (std::vector<std::string>{"dynamicRendering", "drawIndirectCount", "multiDrawIndirect",
                                               "VK_KHR_push_descriptor"}));
  try {
    gpu::Context adopted(external, gpu::ContextOptions{});
    ADD_FAILURE() << "a device without the required features was adopted";
  } catch (const Error& e) {
    for (const std::string& name : missing)
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
}

TEST_F(ExternalDeviceTest, ReadsPerFeatureStructsAndPEnabledFeatures) {
  // An application that enabled the 1.0 features through pEnabledFeatures and 1.3's through the
  // per-feature structs promoted into VkPhysicalDeviceVulkan13Features.
  gpu::FeatureChain chain;
  enable_required(chain);
  VkPhysicalDeviceFeatures core = chain.core.features;
  VkPhysicalDeviceMaintenance4Features m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, nullptr,
                                          VK_TRUE};
  VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
                                                 &m4, VK_TRUE};
  VkPhysicalDeviceDynamicRenderingFeatures dynamic{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, &sync2, VK_TRUE};
  chain.v12.pNext = &dynamic;  // v11 -> v12 -> the per-feature 1.3 structs; no v13 struct
  gpu::ExternalDevice external = describe(chain);
  external.enabled_features_chain = &chain.v11;
  external.enabled_core_features = &core;
  EXPECT_TRUE(gpu::missing_for_external_device(external).empty());
  m4.maintenance4 = VK_FALSE;
  EXPECT_EQ(gpu::missing_for_external_device(external), std::vector<std::string>{"maintenance4"});
}

TEST_F(ExternalDeviceTest, RejectsNullHandlesAndOldApiVersions) {
  gpu::FeatureChain enabled;
  enable_required(enabled);
  gpu::ExternalDevice external = describe(enabled);
  external.instance_api_version = VK_API_VERSION_1_2;
  EXPECT_EQ(gpu::missing_for_external_device(external), std::vector<std::string>{"instance apiVersion 1.3"});
  external = describe(enabled);
  external.queue = VK_NULL_HANDLE;
  EXPECT_THROW(gpu::Context adopted(external, gpu::ContextOptions{}), Error);
}

}  // namespace
}  // namespace myriad::test
