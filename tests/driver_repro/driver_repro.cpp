// driver_repro: a resident-memory leak of Mesa 22.3's lavapipe (Debian 12), in plain C++ and Vulkan 1.3.
// Per frame one command buffer; per draw it pushes a descriptor set (one uniform buffer) and draws. lavapipe
// inlines the uniform values a fragment shader branches on: after each push-descriptor update the next draw
// compiles a new shader variant and never frees it. Modes (repro.frag compiled two ways, see CMakeLists.txt):
//   branch  the fragment shader branches on a uniform-buffer value: the RSS grows by ~300 KB per draw;
//   select  the same result through mix(), no branch on a uniform to inline: the RSS stays flat.
// Usage: driver_repro [frames=100] [draws=9] [branch|select]. Headless; prefers a CPU device (lavapipe).
// Prints the RSS after the warm-up frame and at the end, and the growth per frame; asserts nothing, exits 0.
#include <vulkan/vulkan.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

static void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) std::printf("%s failed: %d\n", what, r), std::exit(1);
}
#define CHECK(x) check((x), #x)
static VkDevice dev;
template <class Handle, class Info>  // handle = vkCreateSomething(dev, &info), the result checked
static Handle make(VkResult (*create)(VkDevice, const Info*, const VkAllocationCallbacks*, Handle*),
                   Info info) {
  Handle handle;
  CHECK(create(dev, &info, nullptr, &handle));
  return handle;
}
// SPIR-V of repro.vert and of repro.frag with and without -DBRANCH (glslc -mfmt=num, CMakeLists.txt)
static const uint32_t kVert[] = {
#include "repro_vert.inc"
};
static const uint32_t kBranch[] = {
#include "repro_branch.inc"
};
static const uint32_t kSelect[] = {
#include "repro_select.inc"
};
static double rss_mb() {  // resident set size (VmRSS) of this process, from /proc/self/statm
  long size = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r"))
    std::fscanf(f, "%ld %ld", &size, &resident), std::fclose(f);
  return resident * double(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 100, draws = argc > 2 ? std::atoi(argv[2]) : 9;
  const bool branch = argc < 4 || std::strcmp(argv[3], "select") != 0;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "driver_repro", 1, nullptr, 0};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app};
  VkInstance inst;
  CHECK(vkCreateInstance(&ici, nullptr, &inst));
  VkPhysicalDevice all[8], phys = VK_NULL_HANDLE;
  uint32_t n = 8;
  vkEnumeratePhysicalDevices(inst, &n, all);
  VkPhysicalDeviceProperties props;
  for (uint32_t i = n; i-- > 0;) {  // the CPU device (lavapipe) if there is one, else the first
    vkGetPhysicalDeviceProperties(all[i], &props);
    if (!phys || props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) phys = all[i];
  }
  if (!phys || frames < 2) return std::printf("no Vulkan device, or fewer than 2 frames\n"), 0;
  vkGetPhysicalDeviceProperties(phys, &props);
  const float prio = 1.0f;
  VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &prio};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.dynamicRendering = VK_TRUE;
  const char* ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f13, 0, 1, &qi, 0, nullptr, 1, &ext};
  CHECK(vkCreateDevice(phys, &dci, nullptr, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, 0, 0, &queue);
  auto push_set = PFN_vkCmdPushDescriptorSetKHR(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));

  // The uniform buffer (repro.frag's Params: color, shadowed = 1) in host-visible memory.
  const float params[5] = {1, 0.5f, 0.25f, 1, 1};
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, sizeof params};
  bi.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  const VkBuffer ubo = make(vkCreateBuffer, bi);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, ubo, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(phys, &mem);
  const auto host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (!(req.memoryTypeBits >> type & 1) || (mem.memoryTypes[type].propertyFlags & host) != host) ++type;
  const VkDeviceMemory memory =
      make(vkAllocateMemory,
           VkMemoryAllocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type});
  void* data;
  CHECK(vkBindBufferMemory(dev, ubo, memory, 0));
  CHECK(vkMapMemory(dev, memory, 0, sizeof params, 0, &data));
  std::memcpy(data, params, sizeof params);

  // The pipeline: a push-descriptor set holding the uniform buffer, no vertex input and, for brevity, no
  // attachment (dynamic rendering of a 64x64 area).
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT};
  const VkDescriptorSetLayout dsl = make(
      vkCreateDescriptorSetLayout,
      VkDescriptorSetLayoutCreateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                      VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 1, &binding});
  const VkPipelineLayout layout =
      make(vkCreatePipelineLayout,
           VkPipelineLayoutCreateInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &dsl});
  auto stage = [](VkShaderStageFlagBits s, const uint32_t* code, size_t size) {
    VkPipelineShaderStageCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, s};
    info.module =
        make(vkCreateShaderModule,
             VkShaderModuleCreateInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, size, code});
    info.pName = "main";
    return info;
  };
  const VkPipelineShaderStageCreateInfo stages[2] = {
      stage(VK_SHADER_STAGE_VERTEX_BIT, kVert, sizeof kVert),
      branch ? stage(VK_SHADER_STAGE_FRAGMENT_BIT, kBranch, sizeof kBranch)
             : stage(VK_SHADER_STAGE_FRAGMENT_BIT, kSelect, sizeof kSelect)};
  VkPipelineVertexInputStateCreateInfo vin{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport vp{0, 0, 64, 64, 0, 1};
  const VkRect2D area{{0, 0}, {64, 64}};
  VkPipelineViewportStateCreateInfo vps{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vps.viewportCount = vps.scissorCount = 1, vps.pViewports = &vp, vps.pScissors = &area;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkGraphicsPipelineCreateInfo gpi{
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, nullptr, 0, 2, stages, &vin, &ia};
  gpi.pViewportState = &vps, gpi.pRasterizationState = &rs, gpi.pMultisampleState = &ms, gpi.layout = layout;
  VkPipeline pipeline;
  CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpi, nullptr, &pipeline));

  // One command buffer, re-recorded each frame; per draw: push the descriptor set, draw a triangle.
  const VkCommandPool pool =
      make(vkCreateCommandPool, VkCommandPoolCreateInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                                        VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT});
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, {}, 1};
  VkCommandBuffer cmd;
  CHECK(vkAllocateCommandBuffers(dev, &cai, &cmd));
  VkCommandBufferBeginInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO, nullptr, 0, area, 1};
  VkDescriptorBufferInfo dbi{ubo, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, 0, 0, 0, 1};
  write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, write.pBufferInfo = &dbi;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cmd};
  std::printf("device: %s, %d frames x %d draws, mode %s\n", props.deviceName, frames, draws,
              branch ? "branch" : "select");
  double rss_start = 0.0;
  for (int f = 0; f < frames; ++f) {
    if (f == 1) rss_start = rss_mb();  // frame 0 warms up (shader compilation, first allocations)
    CHECK(vkBeginCommandBuffer(cmd, &cbi));
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    for (int d = 0; d < draws; ++d) {
      push_set(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &write);
      vkCmdDraw(cmd, 3, 1, 0, 0);
    }
    vkCmdEndRendering(cmd);
    CHECK(vkEndCommandBuffer(cmd));
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
  }
  const double rss_end = rss_mb(), growth = (rss_end - rss_start) / (frames - 1);
  std::printf("VmRSS after frame 1: %.1f MB, after frame %d: %.1f MB\n", rss_start, frames, rss_end);
  std::printf("growth: %.3f MB/frame = %.1f KB per draw\n", growth,
              growth * 1024.0 / (draws > 0 ? draws : 1));
}
