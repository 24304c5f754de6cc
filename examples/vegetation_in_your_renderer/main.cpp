// Myriad's plants inside an application's own Vulkan renderer.
//
// The application owns everything Vulkan: it creates the instance, device and queue with plain Vulkan
// calls, its own colour and depth images, command pool, command buffer and fence. It hands the device
// to Myriad (gpu::Context over an ExternalDevice: no ownership taken, the features Myriad needs are
// checked), then records Myriad's GPU plant culling and drawing into its own command buffer and
// images, submits to its own queue and writes the picture to <out>/plants.png.
//
// With MYRIAD_VALIDATION=1 the Khronos validation layer is enabled and any message fails the run.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/math/math.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace {

constexpr std::uint32_t kWidth = 640, kHeight = 360;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
int g_messages = 0;  // validation messages seen by the application's messenger

void vk_check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, int(result));
    std::exit(1);
  }
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  ++g_messages;
  return VK_FALSE;
}

// An image with its own device memory and view: the application's render targets.
struct AppImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

std::uint32_t memory_type(VkPhysicalDevice gpu, std::uint32_t bits, VkMemoryPropertyFlags flags) {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags) return i;
  std::fprintf(stderr, "no suitable memory type\n");
  std::exit(1);
}

AppImage make_image(VkPhysicalDevice gpu, VkDevice device, VkFormat format, VkImageUsageFlags usage,
                    VkImageAspectFlags aspect) {
  AppImage img;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {kWidth, kHeight, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.usage = usage;
  vk_check(vkCreateImage(device, &info, nullptr, &img.image), "vkCreateImage");
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device, img.image, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = memory_type(gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  vk_check(vkAllocateMemory(device, &alloc, nullptr, &img.memory), "vkAllocateMemory");
  vk_check(vkBindImageMemory(device, img.image, img.memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = img.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  vk_check(vkCreateImageView(device, &view, nullptr, &img.view), "vkCreateImageView");
  return img;
}

void destroy_image(VkDevice device, const AppImage& img) {
  vkDestroyImageView(device, img.view, nullptr);
  vkDestroyImage(device, img.image, nullptr);
  vkFreeMemory(device, img.memory, nullptr);
}

void transition(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                VkImageLayout to, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  barrier.srcStageMask = src_stage;
  barrier.srcAccessMask = src_access;
  barrier.dstStageMask = dst_stage;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

int main(int argc, char** argv) try {
  const std::filesystem::path out = argc > 1 ? argv[1] : ".";
  std::filesystem::create_directories(out);
  const char* env = std::getenv("MYRIAD_VALIDATION");
  const bool validation = env && std::strcmp(env, "1") == 0;

  // --- The application's Vulkan objects (plain Vulkan) ---------------------------------------------
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  if (validation) {
    instance_info.enabledLayerCount = instance_info.enabledExtensionCount = 1;
    instance_info.ppEnabledLayerNames = &layer;
    instance_info.ppEnabledExtensionNames = &debug_ext;
  }
  VkInstance instance = VK_NULL_HANDLE;
  vk_check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  if (validation) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    info.pfnUserCallback = on_message;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    vk_check(create(instance, &info, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
  }

  std::uint32_t count = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  const VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &gpu);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0) {
    std::fprintf(stderr, "no Vulkan device\n");
    return 1;
  }
  // The first queue family with graphics and compute.
  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &family_count, families.data());
  std::uint32_t family = 0;
  while (family < family_count &&
         (families[family].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) !=
             (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
    ++family;

  // The features and extension Myriad's GPU modules need (docs/API.md lists them; a missing one is
  // named by the error gpu::Context throws).
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = v13.synchronization2 = v13.maintenance4 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  v12.bufferDeviceAddress = v12.drawIndirectCount = v12.samplerFilterMinmax = v12.scalarBlockLayout = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  v11.shaderDrawParameters = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  features.features.multiDrawIndirect = features.features.drawIndirectFirstInstance = VK_TRUE;
  features.features.shaderInt64 = features.features.shaderClipDistance = VK_TRUE;
  const char* push_descriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = 1;
  device_info.ppEnabledExtensionNames = &push_descriptor;
  VkDevice device = VK_NULL_HANDLE;
  vk_check(vkCreateDevice(gpu, &device_info, nullptr, &device), "vkCreateDevice");
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, family, 0, &queue);

  const AppImage color = make_image(gpu, device, kColorFormat,
                                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                    VK_IMAGE_ASPECT_COLOR_BIT);
  const AppImage depth = make_image(gpu, device, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                    VK_IMAGE_ASPECT_DEPTH_BIT);

  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = family;
  vk_check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cmd_info.commandPool = pool;
  cmd_info.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  vk_check(vkAllocateCommandBuffers(device, &cmd_info, &cmd), "vkAllocateCommandBuffers");
  VkFence fence = VK_NULL_HANDLE;
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  vk_check(vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
  // Host-visible memory for reading the picture back.
  VkBuffer readback = VK_NULL_HANDLE;
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = VkDeviceSize(kWidth) * kHeight * 4;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  vk_check(vkCreateBuffer(device, &buffer_info, nullptr, &readback), "vkCreateBuffer");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, readback, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = memory_type(
      gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkDeviceMemory readback_memory = VK_NULL_HANDLE;
  vk_check(vkAllocateMemory(device, &alloc, nullptr, &readback_memory), "vkAllocateMemory");
  vk_check(vkBindBufferMemory(device, readback, readback_memory, 0), "vkBindBufferMemory");

  std::size_t drawn = 0;
  {
    // --- Myriad on the application's device ------------------------------------------------------
    myriad::gpu::ExternalDevice external;
    external.instance = instance;
    external.instance_api_version = app.apiVersion;
    external.physical_device = gpu;
    external.device = device;
    external.queue = queue;
    external.queue_family = family;
    external.enabled_features_chain = &features;
    external.enabled_extensions = {push_descriptor};
    myriad::gpu::Context ctx(external, myriad::gpu::ContextOptions{});

    // A 300 m field of the three built-in plant kinds, baked in memory and pooled for the GPU.
    myriad::vegetation::BakeOptions bake;
    bake.world_max = {300.0, 300.0};
    const glm::dvec3 origin(150.0, 0.0, 290.0);  // the render origin: near the camera
    myriad::vegetation::RuntimeWorld world(origin);
    for (myriad::vegetation::Tile& t : myriad::vegetation::bake_tiles(bake)) {
      auto tile = std::make_shared<const myriad::vegetation::Tile>(std::move(t));
      for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
        world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
    }
    const myriad::vegetation::PlantArt art = myriad::vegetation::plant_art(bake.types);
    const myriad::render::VegetationCull cull(ctx);
    // Pipelines are made for the application's attachment formats.
    const myriad::render::VegetationRenderer renderer(ctx, art.meshes, kColorFormat, kDepthFormat,
                                                      art.textures);
    std::vector<myriad::render::VegetationGpuType> pools;
    for (const auto& type : world.types())
      pools.push_back(
          cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f, renderer.lod_bounds(type.prefab)));
    std::vector<myriad::render::VegetationFrameType> types;
    for (const auto& p : pools) types.push_back({&p, 0});
    myriad::render::VegetationPasses passes(ctx, cull, renderer);

    // The application's camera: its own view and reverse-Z projection matrices, relative to `origin`.
    const float height = bake.terrain.height(150.0, 290.0) + 6.0f;
    const glm::mat4 view = glm::lookAt(glm::vec3(0.0f, height, 0.0f), glm::vec3(0.0f, height - 4.0f, -60.0f),
                                       glm::vec3(0.0f, 1.0f, 0.0f));
    const glm::mat4 proj = myriad::perspective_infinite_reverse_z(0.9f, float(kWidth) / float(kHeight), 0.1f);
    const auto frame_view = myriad::render::FrameView::of_matrices(view, proj, kWidth, kHeight,
                                                                   glm::vec3(0.4f, 1.0f, 0.3f), 0.0f, origin);

    // --- One frame, recorded into the application's command buffer --------------------------------
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk_check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    // Per-frame uploads go through Myriad's staging ring: tag them with this frame.
    const std::uint64_t serial = ctx.staging_ring().begin_frame();
    passes.begin_frame(cmd, types);
    // Outside rendering: GPU culling (compute), ending with its own barrier to indirect/vertex reads.
    passes.cull(cmd, frame_view, types, myriad::render::FramePhase::kSingle, nullptr);

    transition(cmd, color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    transition(
        cmd, depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo color_att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color_att.imageView = color.view;
    color_att.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color_att.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color_att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color_att.clearValue.color = {{0.55f, 0.7f, 0.9f, 1.0f}};
    VkRenderingAttachmentInfo depth_att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth_att.imageView = depth.view;
    depth_att.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth_att.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth_att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth_att.clearValue.depthStencil = {0.0f, 0};  // Myriad draws reverse-Z: far is 0, test GREATER_OR_EQUAL
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {kWidth, kHeight}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color_att;
    rendering.pDepthAttachment = &depth_att;
    vkCmdBeginRendering(cmd, &rendering);
    // Myriad's pipelines take viewport and scissor as dynamic state: the application sets them.
    const VkViewport viewport{0.0f, 0.0f, float(kWidth), float(kHeight), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    // Inside rendering: the application's own opaque geometry would go here too.
    passes.draw(cmd, frame_view, myriad::render::VegetationDrawOptions{}, types, nullptr);
    vkCmdEndRendering(cmd);

    transition(cmd, color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
               VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {kWidth, kHeight, 1};
    vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
    VkMemoryBarrier2 to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &to_host;
    vkCmdPipelineBarrier2(cmd, &dep);
    vk_check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    vk_check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    vk_check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    ctx.staging_ring().complete(serial);  // the frame's staged bytes may be reused
    drawn = passes.read_counts().total();
  }  // Myriad's objects and context go first; the device stays the application's.

  void* pixels = nullptr;
  vk_check(vkMapMemory(device, readback_memory, 0, VK_WHOLE_SIZE, 0, &pixels), "vkMapMemory");
  myriad::write_png_rgba8(
      out / "plants.png", kWidth, kHeight,
      std::span(static_cast<const std::uint8_t*>(pixels), std::size_t(kWidth) * kHeight * 4));
  vkUnmapMemory(device, readback_memory);

  vkDestroyBuffer(device, readback, nullptr);
  vkFreeMemory(device, readback_memory, nullptr);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  destroy_image(device, color);
  destroy_image(device, depth);
  vkDestroyDevice(device, nullptr);
  if (messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance, messenger, nullptr);
  }
  vkDestroyInstance(instance, nullptr);

  std::printf("%zu plants drawn into the application's images: %s\n", drawn, (out / "plants.png").c_str());
  if (g_messages > 0) {
    std::fprintf(stderr, "%d validation messages\n", g_messages);
    return 1;
  }
  return drawn > 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
