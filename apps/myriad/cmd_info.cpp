// `myriad info`: the chosen Vulkan device, its API version and every required/optional feature.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/device/features.hpp"
#include "option_checks.hpp"

namespace myriad::app {
namespace {

struct InfoOptions {
  std::vector<std::string> require;
};

std::string version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

int run_info(const InfoOptions& options) {
  gpu::ContextOptions ctx_options = gpu::ContextOptions::from_environment();
  ctx_options.extra_required = options.require;
  validate_options(ctx_options, {{"ContextOptions::extra_required", "--require"}});
  const auto devices = gpu::Context::enumerate_devices();
  std::printf("Vulkan devices:\n");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::printf("  %zu: %s (%s, Vulkan %s)\n", i, devices[i].name.c_str(),
                gpu::device_type_name(devices[i].type), version_string(devices[i].api_version).c_str());
  }
  gpu::Context ctx(ctx_options);
  const auto& props = ctx.capabilities().properties;
  std::printf("chosen device: %s (%s)\n", ctx.device_name().c_str(), gpu::device_type_name(props.deviceType));
  std::printf("Vulkan version: %s\n", version_string(props.apiVersion).c_str());
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver, {}};
  vkGetPhysicalDeviceProperties2(ctx.physical_device(), &props2);
  std::printf("driver: %s (%s)\n", driver.driverName, driver.driverInfo);
  std::printf("validation layer: %s\n",
              ctx.validation_enabled() ? "on" : "off (MYRIAD_VALIDATION=1 turns it on)");
  std::printf("subgroup size: %u\n", ctx.capabilities().subgroup_size);
  std::printf("maxStorageBufferRange: %u bytes\n", props.limits.maxStorageBufferRange);
  gpu::FeatureChain supported;
  vkGetPhysicalDeviceFeatures2(ctx.physical_device(), &supported.core);
  std::printf("required features:\n");
  for (const gpu::FeatureInfo& f : gpu::required_features()) {
    std::printf("  [%s] %-28s %s\n",
                gpu::feature_supported(f.name, supported, ctx.capabilities()) ? "yes" : " no", f.name, f.why);
  }
  std::printf("optional features:\n");
  for (const gpu::FeatureInfo& f : gpu::optional_features()) {
    std::printf("  [%s] %-28s %s\n",
                gpu::feature_supported(f.name, supported, ctx.capabilities()) ? "yes" : " no", f.name, f.why);
  }
  std::printf("timing: %s\n",
              ctx.has_timestamps() ? "gpu-timestamps" : "wall-clock (no useful GPU timestamps)");
  return 0;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* sub = app.add_subcommand("info", "Print the chosen Vulkan device and its features");
  sub->add_option("--require", options->require,
                  "Also require this feature (test hook: shows the error for a missing feature)");
  return {sub, [options] { return run_info(*options); }};
}

}  // namespace myriad::app
