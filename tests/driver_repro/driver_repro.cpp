// Standalone Vulkan 1.3 program (no Myriad code): resident-memory growth per frame of the crowd
// renderer's draw pattern on lavapipe. Per frame one command buffer (allocated, submitted with a fence,
// waited, freed) renders into color + D32 (reverse-Z); per draw, as the crowd's type/LOD slots do, it
// binds the pipeline, pushes a descriptor set (vertex: storage buffer; fragment: texture, uniform
// buffer, compare-sampled depth map), pushes constants and draws indexed-indirect with 0 instances.
// The fragment shader (repro.frag) branches on uniform values the way crowd_vat.frag + shadow.glsl do.
// Mesa 22.3's lavapipe then compiles a fresh "inlined uniforms" shader variant at each such draw and
// never frees it. Usage: driver_repro [frames=100] [draws_per_frame=9] [mode=all]; modes:
// push-once (descriptors pushed once per frame), no-push-constants, bind-once (pipeline bound once).
// Prints VmRSS and the growth per frame; asserts nothing, exits 0. Validation is switched from outside:
// VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation.
#include <vulkan/vulkan.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#define CHECK(x)                              \
  do {                                        \
    VkResult r_ = (x);                        \
    if (r_ != VK_SUCCESS) {                   \
      std::printf("%s failed: %d\n", #x, r_); \
      std::exit(1);                           \
    }                                         \
  } while (0)
static const uint32_t kVert[] = {
// SPIR-V of repro.vert / repro.frag, glslc -mfmt=num at build time
#include "repro.vert.inc"
};
static const uint32_t kFrag[] = {
#include "repro.frag.inc"
};
static VkDevice dev;
static VkPhysicalDeviceMemoryProperties mem_props;

static double rss_mb() {  // VmRSS of this process from /proc/self/status
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  return 0.0;
}
static VkDeviceMemory bind_memory(VkMemoryRequirements req) {  // host-visible memory (lavapipe: every type)
  uint32_t type = 0;
  while (!((req.memoryTypeBits >> type) & 1) ||
         !(mem_props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
    ++type;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  VkDeviceMemory m;
  CHECK(vkAllocateMemory(dev, &ai, nullptr, &m));
  return m;
}
static VkBuffer make_buffer(VkBufferUsageFlags usage, const void* data, VkDeviceSize size) {
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
  VkBuffer b;
  CHECK(vkCreateBuffer(dev, &bi, nullptr, &b));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, b, &req);
  VkDeviceMemory m = bind_memory(req);
  CHECK(vkBindBufferMemory(dev, b, m, 0));
  void* p;
  CHECK(vkMapMemory(dev, m, 0, size, 0, &p));
  std::memcpy(p, data, size);
  return b;
}
static VkImageView make_image(VkFormat fmt, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                              VkImage* out) {
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                       nullptr,
                       0,
                       VK_IMAGE_TYPE_2D,
                       fmt,
                       {64, 64, 1},
                       1,
                       1,
                       VK_SAMPLE_COUNT_1_BIT,
                       VK_IMAGE_TILING_OPTIMAL,
                       usage};
  CHECK(vkCreateImage(dev, &ii, nullptr, out));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, *out, &req);
  CHECK(vkBindImageMemory(dev, *out, bind_memory(req), 0));
  VkImageViewCreateInfo vi{
      VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, nullptr, 0, *out, VK_IMAGE_VIEW_TYPE_2D, fmt};
  vi.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView v;
  CHECK(vkCreateImageView(dev, &vi, nullptr, &v));
  return v;
}

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 100, draws = argc > 2 ? std::atoi(argv[2]) : 9;
  const std::string mode = argc > 3 ? argv[3] : "all";
  const bool push_constants = mode != "no-push-constants", bind_per_draw = mode != "bind-once",
             push_per_draw = mode != "push-once";
  // Headless instance and device: a CPU device (lavapipe) if there is one, else the first.
  VkApplicationInfo app{
      VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "driver_repro", 1, nullptr, 0, VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app};
  VkInstance inst;
  CHECK(vkCreateInstance(&ici, nullptr, &inst));
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(inst, &n, nullptr);
  std::vector<VkPhysicalDevice> all(n);
  vkEnumeratePhysicalDevices(inst, &n, all.data());
  if (n == 0) {
    std::printf("no Vulkan device\n");
    return 0;
  }
  VkPhysicalDevice phys = all[0];
  VkPhysicalDeviceProperties props;
  for (VkPhysicalDevice p : all) {  // prefer the CPU device (lavapipe)
    vkGetPhysicalDeviceProperties(p, &props);
    if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      phys = p;
      break;
    }
  }
  vkGetPhysicalDeviceProperties(phys, &props);
  vkGetPhysicalDeviceMemoryProperties(phys, &mem_props);
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &prio};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.dynamicRendering = f13.synchronization2 = VK_TRUE;
  const char* ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f13, 0, 1, &qi, 0, nullptr, 1, &ext};
  CHECK(vkCreateDevice(phys, &dci, nullptr, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, 0, 0, &queue);
  auto push_set =
      reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));

  // Resources: vertex positions, index buffer, one indirect command {3 indices, 0 instances}, a uniform
  // buffer, a texture, a depth map sampled with a compare sampler, and the color + depth attachments.
  const float pos[12] = {0, 0, 0.5f, 1, 1, 0, 0.5f, 1, 0, 1, 0.5f, 1};
  const uint32_t idx[3] = {0, 1, 2}, cmd_data[5] = {3, 0, 0, 0, 0};
  VkBuffer vbuf = make_buffer(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, pos, sizeof pos);
  VkBuffer ibuf = make_buffer(VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof idx);
  VkBuffer indirect = make_buffer(VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, cmd_data, sizeof cmd_data);
  const float shadow_params[24] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,         0,
                                   0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1.0f / 64, 0};
  VkBuffer ubo = make_buffer(VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, shadow_params, sizeof shadow_params);
  VkImage tex_img, color_img, depth_img, shadow_img;
  VkImageView tex =
      make_image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_ASPECT_COLOR_BIT, &tex_img);
  VkImageView color = make_image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT, &color_img);
  VkImageView depth = make_image(VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                 VK_IMAGE_ASPECT_DEPTH_BIT, &depth_img);
  VkImageView shadow =
      make_image(VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, &shadow_img);
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler, compare;
  CHECK(vkCreateSampler(dev, &si, nullptr, &sampler));
  si.compareEnable = VK_TRUE;
  si.compareOp = VK_COMPARE_OP_GREATER_OR_EQUAL;
  CHECK(vkCreateSampler(dev, &si, nullptr, &compare));

  // Pipeline: push-descriptor set {SSBO (vertex), sampler2D, UBO, sampler2DShadow (fragment)}, 96 bytes
  // of push constants for both stages, color + D32 depth, reverse-Z.
  const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT, fs = VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutBinding b[4] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs},
                                       {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs},
                                       {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, fs},
                                       {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs}};
  VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                      VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 4, b};
  VkDescriptorSetLayout dsl;
  CHECK(vkCreateDescriptorSetLayout(dev, &dli, nullptr, &dsl));
  VkPushConstantRange pcr{vs | fs, 0, 96};
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &dsl, 1, &pcr};
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(dev, &pli, nullptr, &layout));
  VkShaderModuleCreateInfo smi[2] = {
      {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof kVert, kVert},
      {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof kFrag, kFrag}};
  VkPipelineShaderStageCreateInfo stages[2] = {};
  for (int s = 0; s < 2; ++s) {
    stages[s] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,           nullptr,        0,
                 s ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT, VK_NULL_HANDLE, "main"};
    CHECK(vkCreateShaderModule(dev, &smi[s], nullptr, &stages[s].module));
  }
  VkPipelineVertexInputStateCreateInfo vin{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                            nullptr, 0, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
  VkViewport vp{0, 0, 64, 64, 0, 1};
  VkRect2D sc{{0, 0}, {64, 64}};
  VkPipelineViewportStateCreateInfo vps{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &vp, 1, &sc};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.cullMode = VK_CULL_MODE_BACK_BIT;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, nullptr,
                                          0, VK_SAMPLE_COUNT_1_BIT};
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                           nullptr,
                                           0,
                                           VK_TRUE,
                                           VK_TRUE,
                                           VK_COMPARE_OP_GREATER};  // reverse-Z
  VkPipelineColorBlendAttachmentState cba{};
  cba.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                         nullptr,
                                         0,
                                         VK_FALSE,
                                         VK_LOGIC_OP_COPY,
                                         1,
                                         &cba};
  VkFormat cf = VK_FORMAT_R8G8B8A8_UNORM;
  VkPipelineRenderingCreateInfo pri{
      VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &cf, VK_FORMAT_D32_SFLOAT};
  VkGraphicsPipelineCreateInfo gpi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                   &pri,
                                   0,
                                   2,
                                   stages,
                                   &vin,
                                   &ia,
                                   nullptr,
                                   &vps,
                                   &rs,
                                   &ms,
                                   &ds,
                                   &cb,
                                   nullptr,
                                   layout};
  VkPipeline pipeline;
  CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpi, nullptr, &pipeline));

  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                              VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, 0};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(dev, &cpi, nullptr, &pool));
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  CHECK(vkCreateFence(dev, &fci, nullptr, &fence));
  const char* layers = std::getenv("VK_INSTANCE_LAYERS");
  std::printf("device: %s, %d frames x %d draws, mode %s, layers: %s\n", props.deviceName, frames, draws,
              mode.c_str(), layers ? layers : "none");
  double rss_start = 0.0;
  for (int f = 0; f < frames; ++f) {
    if (f == 1) rss_start = rss_mb();  // frame 0 warms up (JIT of the shaders, first allocations)
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                    VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(cmd, &cbi));
    VkImageMemoryBarrier2 ib[4];  // UNDEFINED -> the layouts this frame uses (contents are not needed)
    const VkImage imgs[4] = {tex_img, color_img, depth_img, shadow_img};
    const VkImageLayout lay[4] = {
        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    for (int i = 0; i < 4; ++i)
      ib[i] = {
          VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
          nullptr,
          VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
          0,
          VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
          VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
          VK_IMAGE_LAYOUT_UNDEFINED,
          lay[i],
          0,
          0,
          imgs[i],
          {VkImageAspectFlags(i >= 2 ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT), 0, 1, 0, 1}};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO, nullptr, 0, 0, nullptr, 0, nullptr, 4, ib};
    vkCmdPipelineBarrier2(cmd, &dep);
    VkRenderingAttachmentInfo ca{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, nullptr, color, lay[1]};
    ca.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    ca.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingAttachmentInfo da = ca;
    da.imageView = depth;
    da.imageLayout = lay[2];  // cleared to 0 (far)
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO, nullptr, 0, sc, 1, 0, 1, &ca, &da};
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindIndexBuffer(cmd, ibuf, 0, VK_INDEX_TYPE_UINT32);
    const VkDescriptorBufferInfo bi[2] = {{vbuf, 0, VK_WHOLE_SIZE}, {ubo, 0, VK_WHOLE_SIZE}};
    const VkDescriptorImageInfo ii[2] = {{sampler, tex, lay[0]}, {compare, shadow, lay[3]}};
    VkWriteDescriptorSet w[4] = {};
    for (uint32_t i = 0; i < 4; ++i)
      w[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
              nullptr,
              0,
              i,
              0,
              1,
              b[i].descriptorType,
              &ii[i / 2],
              &bi[i / 2]};
    for (int d = 0; d < draws; ++d) {  // per draw, as the crowd's slots: bind, push, draw 0 instances
      if (bind_per_draw && d > 0) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      if (push_per_draw || d == 0) push_set(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 4, w);
      const struct {
        float view_proj[16], sun[4], time;
        uint32_t type, lod, flat_color;
      } push{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
             {0, 1, 0, 0.3f},
             0.033f * float(f),
             uint32_t(d / 3),
             uint32_t(d % 3),
             0};
      if (push_constants) vkCmdPushConstants(cmd, layout, vs | fs, 0, sizeof push, &push);
      vkCmdDrawIndexedIndirect(cmd, indirect, 0, 1, sizeof cmd_data);
    }
    vkCmdEndRendering(cmd);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo sub{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cmd};
    CHECK(vkQueueSubmit(queue, 1, &sub, fence));
    CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(dev, 1, &fence));
    vkFreeCommandBuffers(dev, pool, 1, &cmd);
    if ((f + 1) % (frames / 10 > 0 ? frames / 10 : 1) == 0)
      std::printf("frame %5d  VmRSS %8.1f MB\n", f + 1, rss_mb());
  }
  const double rss_end = rss_mb();
  std::printf("growth: %.1f MB over %d frames = %.3f MB/frame = %.1f KB per draw\n", rss_end - rss_start,
              frames - 1, (rss_end - rss_start) / (frames - 1),
              (rss_end - rss_start) * 1024.0 / (frames - 1) / draws);
  vkDeviceWaitIdle(dev);  // the process exits; the driver's objects go with it
  return 0;
}
