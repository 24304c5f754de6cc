// Records the vegetation culling pass. The group test runs on the CPU (a handful of boxes per type);
// successive segment dispatches append to the same lists, so each is separated by a compute barrier.
#include "myriad/render/vegetation/vegetation_cull.hpp"

#include <cstring>
#include <vector>

#include "myriad/core/error.hpp"
#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

namespace {
constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}  // namespace

// Bindings: spheres, hashes, params, lists, args, visibility, counters [, pyramid, Hi-Z params].
VegetationCull::VegetationCull(gpu::Context& ctx)
    : ctx_(ctx),
      pipeline_(
          gpu::make_compute_pipeline(ctx, spirv::veg_cull_comp(),
                                     {{kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage},
                                      sizeof(shader::VegCullPush)})),
      hiz_pipeline_(
          gpu::make_compute_pipeline(ctx, spirv::veg_cull_hiz_comp(),
                                     {{kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage,
                                       VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kStorage},
                                      sizeof(shader::VegCullPush)})) {}

namespace {

// What a GPU copy of a runtime type holds besides its instances: the culling spheres, the LOD hashes
// and the parameter block.
struct TypeArrays {
  std::vector<glm::vec4> spheres;
  std::vector<float> hashes;
  shader::VegCullParams params{};
};

TypeArrays type_arrays(const vegetation::RuntimeWorld::Type& type, const VegetationGpuType& g) {
  const std::size_t n = type.instances.size();
  TypeArrays a{std::vector<glm::vec4>(n), std::vector<float>(n), {}};
  for (std::size_t i = 0; i < n; ++i) {
    a.spheres[i] = {type.spheres.x[i], type.spheres.y[i], type.spheres.z[i], type.spheres.r[i]};
    a.hashes[i] = type.instances[i].spare.y;
  }
  a.params.switch_sq = {g.lod.switch_sq[0], g.lod.switch_sq[1], g.lod.switch_sq[2], g.lod.switch_sq[3]};
  a.params.fade_start_sq = {g.lod.fade_start_sq[0], g.lod.fade_start_sq[1], g.lod.fade_start_sq[2],
                            g.lod.fade_start_sq[3]};
  a.params.lod_count = g.lod.count;
  a.params.band = g.lod.band;
  a.params.capacity = g.capacity;
  return a;
}

}  // namespace

VegetationGpuType VegetationCull::make_type(const vegetation::RuntimeWorld::Type& type,
                                            std::span<const MeshRange> meshes, float band, float fade) const {
  const auto n = static_cast<std::uint32_t>(type.instances.size());
  if (n == 0) throw Error("VegetationCull::upload: empty runtime type");
  VegetationGpuType g;
  g.capacity = n;
  g.segments = type.segments;
  g.lod = vegetation::make_hashed_lod(type.prefab.lods, band, fade);
  for (std::size_t l = 0; l < meshes.size() && l < vegetation::kGpuMaxLods; ++l) g.meshes[l] = meshes[l];
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  g.spheres = gpu::Buffer(ctx_, n * sizeof(glm::vec4), storage, gpu::MemoryKind::kDeviceLocal);
  g.hashes = gpu::Buffer(ctx_, n * sizeof(float), storage, gpu::MemoryKind::kDeviceLocal);
  g.instances =
      gpu::Buffer(ctx_, n * sizeof(vegetation::RuntimeInstance), storage, gpu::MemoryKind::kDeviceLocal);
  g.params = gpu::Buffer(ctx_, sizeof(shader::VegCullParams), storage, gpu::MemoryKind::kDeviceLocal);
  static_assert(VEG_LISTS == vegetation::kGpuMaxLods);
  g.lists = gpu::Buffer(ctx_, std::size_t(n) * vegetation::kGpuMaxLods * 2 * sizeof(std::uint32_t), storage,
                        gpu::MemoryKind::kDeviceLocal);
  g.args = gpu::Buffer(ctx_, VEG_ARGS_BYTES, storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  g.hiz = gpu::Buffer(ctx_, sizeof(shader::HizParams), storage, gpu::MemoryKind::kDeviceLocal);
  g.counters = gpu::Buffer(ctx_, sizeof(shader::CullCounters), storage, gpu::MemoryKind::kDeviceLocal);
  g.visibility = gpu::Buffer(ctx_, n * sizeof(std::uint32_t), storage, gpu::MemoryKind::kDeviceLocal);
  return g;
}

VegetationGpuType VegetationCull::upload(const vegetation::RuntimeWorld::Type& type,
                                         std::span<const MeshRange> meshes, float band, float fade) const {
  VegetationGpuType g = make_type(type, meshes, band, fade);
  const TypeArrays a = type_arrays(type, g);
  gpu::upload(ctx_, g.visibility, std::span<const std::uint32_t>(std::vector<std::uint32_t>(g.capacity, 0u)));
  gpu::upload(ctx_, g.spheres, std::span<const glm::vec4>(a.spheres));
  gpu::upload(ctx_, g.hashes, std::span<const float>(a.hashes));
  gpu::upload(ctx_, g.instances, std::span<const vegetation::RuntimeInstance>(type.instances));
  gpu::upload(ctx_, g.params, std::span<const shader::VegCullParams>(&a.params, 1));
  return g;
}

std::optional<StagedVegetationType> VegetationCull::stage(const vegetation::RuntimeWorld::Type& type,
                                                          std::span<const MeshRange> meshes, float band,
                                                          float fade) const {
  const std::size_t n = type.instances.size();
  if (n == 0) throw Error("VegetationCull::stage: empty runtime type");
  // Room first, so a refused type makes no buffers. Each array starts 16-byte aligned.
  auto align = [](VkDeviceSize b) { return (b + 15) & ~VkDeviceSize(15); };
  const VkDeviceSize spheres = align(n * sizeof(glm::vec4)), hashes = align(n * sizeof(float));
  const VkDeviceSize instances = align(n * sizeof(vegetation::RuntimeInstance));
  const VkDeviceSize params = sizeof(shader::VegCullParams);
  const std::optional<gpu::StagingRing::Span> span =
      ctx_.staging_ring().allocate_budgeted(spheres + hashes + instances + params);
  if (!span) return std::nullopt;
  StagedVegetationType s{make_type(type, meshes, band, fade), {}};
  const TypeArrays a = type_arrays(type, s.gpu);
  VkDeviceSize at = 0;
  std::size_t k = 0;
  auto put = [&](const gpu::Buffer& dst, const void* bytes, VkDeviceSize size, VkDeviceSize room) {
    std::memcpy(span->data + at, bytes, size);
    s.copies[k++] = {dst.handle(), VkBufferCopy{span->offset + at, 0, size}};
    at += room;
  };
  put(s.gpu.spheres, a.spheres.data(), n * sizeof(glm::vec4), spheres);
  put(s.gpu.hashes, a.hashes.data(), n * sizeof(float), hashes);
  put(s.gpu.instances, type.instances.data(), n * sizeof(vegetation::RuntimeInstance), instances);
  put(s.gpu.params, &a.params, params, params);
  s.cleared = s.gpu.visibility.handle();
  s.cleared_bytes = s.gpu.visibility.size();
  return s;
}

void VegetationCull::record_staged(VkCommandBuffer cmd, const StagedVegetationType& staged) const {
  vkCmdFillBuffer(cmd, staged.cleared, 0, staged.cleared_bytes, 0u);
  const VkBuffer ring = ctx_.staging_ring().buffer().handle();
  for (const auto& [dst, region] : staged.copies) vkCmdCopyBuffer(cmd, ring, dst, 1, &region);
}

std::uint32_t VegetationCull::record(VkCommandBuffer cmd, const Frustum& frustum, glm::vec3 camera,
                                     const VegetationGpuType& g, const VegetationHiz* hiz,
                                     VegetationPass pass) const {
  shader::VegCullArgs args{};
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l)
    args.args[l] = indexed_command(g.meshes[l], l * g.capacity);
  args.overflow = 0;
  // Previous frame's indirect and vertex reads finish before the args and lists are rewritten.
  // (Also the previous record's compute reads of the Hi-Z parameters.)
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_NONE);
  vkCmdUpdateBuffer(cmd, g.args.handle(), 0, sizeof(args), &args);
  if (pass != VegetationPass::kLate)
    vkCmdFillBuffer(cmd, g.counters.handle(), 0, sizeof(shader::CullCounters), 0u);
  const bool test_pyramid = hiz && pass == VegetationPass::kLate;
  if (test_pyramid) {
    shader::HizParams hp{};
    hp.view_proj = hiz->view_proj;
    hp.source_width = hiz->source_width;
    hp.source_height = hiz->source_height;
    hp.levels = hiz->levels;
    vkCmdUpdateBuffer(cmd, g.hiz.handle(), 0, sizeof(hp), &hp);
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

  shader::VegCullPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i) push.planes[i] = frustum.planes[std::size_t(i)].as_vec4();
  push.camera = camera;
  push.phase = static_cast<std::uint32_t>(pass);
  const std::array bindings{gpu::storage_buffer(g.spheres), gpu::storage_buffer(g.hashes),
                            gpu::storage_buffer(g.params),  gpu::storage_buffer(g.lists),
                            gpu::storage_buffer(g.args),    gpu::storage_buffer(g.visibility),
                            gpu::storage_buffer(g.counters)};
  const std::array hiz_bindings{
      gpu::storage_buffer(g.spheres),
      gpu::storage_buffer(g.hashes),
      gpu::storage_buffer(g.params),
      gpu::storage_buffer(g.lists),
      gpu::storage_buffer(g.args),
      gpu::storage_buffer(g.visibility),
      gpu::storage_buffer(g.counters),
      gpu::sampled_image(hiz ? hiz->sampler : VK_NULL_HANDLE, hiz ? hiz->pyramid : VK_NULL_HANDLE,
                         VK_IMAGE_LAYOUT_GENERAL),
      gpu::storage_buffer(g.hiz)};
  std::uint32_t dispatched = 0;
  for (const auto& seg : g.segments) {
    // Segments come from the same upload as the arrays; a range past them would be a bug upstream,
    // and the shader bounds every index by its buffers anyway.
    if (seg.first >= g.capacity || seg.count > g.capacity - seg.first) continue;
    if (!vegetation::group_visible(frustum, seg.bounds, camera, g.lod)) continue;
    if (dispatched > 0)  // appends of the previous dispatch complete before the next one's
      gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    push.first = seg.first;
    push.count = seg.count;
    if (test_pyramid)
      gpu::bind(ctx_, cmd, hiz_pipeline_, hiz_bindings, &push, sizeof(push));
    else
      gpu::bind(ctx_, cmd, pipeline_, bindings, &push, sizeof(push));
    vkCmdDispatch(cmd, (seg.count + 63) / 64, 1, 1);
    ++dispatched;
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                          VK_ACCESS_2_TRANSFER_READ_BIT);
  return dispatched;
}

}  // namespace myriad::render
