// Records the vegetation culling pass. The group test runs on the CPU (a handful of boxes per type);
// the pages of the segments that pass are listed in the staging ring and culled in one dispatch.
#include "myriad/render/vegetation/vegetation_cull.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

namespace {
constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
// Workgroups per dispatch (the guaranteed minimum of maxComputeWorkGroupCount[0]).
constexpr std::uint32_t kMaxGroupsPerDispatch = 65535;
}  // namespace

std::uint64_t VegetationGpuType::bytes() const {
  return records.size() + pages.size() + params.size() + lists.size() + args.size() + hiz.size() +
         visibility.size() + counters.size();
}

// Bindings: records, pages, decode table, params, live pages, lists, args, visibility, counters
// [, pyramid, Hi-Z params].
VegetationCull::VegetationCull(gpu::Context& ctx)
    : ctx_(ctx),
      upload_share_(ctx.uploads(), "vegetation field"),
      decode_(gpu::make_filled_buffer(ctx, vegetation::decode_table(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)),
      pipeline_(gpu::make_compute_pipeline(
          ctx, spirv::veg_cull_comp(),
          {{kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage},
           sizeof(shader::VegCullPush)})),
      hiz_pipeline_(gpu::make_compute_pipeline(
          ctx, spirv::veg_cull_hiz_comp(),
          {{kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage, kStorage,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kStorage},
           sizeof(shader::VegCullPush)})),
      expand_pipeline_(gpu::make_compute_pipeline(ctx, spirv::veg_expand_comp(),
                                                  {{kStorage, kStorage, kStorage, kStorage, kStorage}, 0})) {}

void VegetationCull::record_expand(VkCommandBuffer cmd, const VegetationGpuType& g,
                                   const gpu::Buffer& out) const {
  const std::array bindings{gpu::storage_buffer(g.records), gpu::storage_buffer(g.pages),
                            gpu::storage_buffer(*g.decode), gpu::storage_buffer(g.params),
                            gpu::storage_buffer(out)};
  gpu::bind(ctx_, cmd, expand_pipeline_, bindings, nullptr, 0);
  vkCmdDispatch(cmd, (g.capacity + 63) / 64, 1, 1);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                      VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
}

shader::VegCullParams VegetationCull::params(const VegetationGpuType& g) const {
  shader::VegCullParams p{};
  p.switch_sq = {g.lod.switch_sq[0], g.lod.switch_sq[1], g.lod.switch_sq[2], g.lod.switch_sq[3]};
  p.fade_start_sq = {g.lod.fade_start_sq[0], g.lod.fade_start_sq[1], g.lod.fade_start_sq[2],
                     g.lod.fade_start_sq[3]};
  p.lod_count = g.lod.count;
  p.band = g.lod.band;
  p.capacity = g.capacity;
  p.sphere_mid = g.shape.mid;
  p.sphere_radius = g.shape.radius;
  p.fade_inv = {g.lod.fade_inv[0], g.lod.fade_inv[1], g.lod.fade_inv[2], g.lod.fade_inv[3]};
  const vegetation::PlantLodShapes& s = g.lod_shapes;
  p.lod_mid = {s.lod[0].mid, s.lod[1].mid, s.lod[2].mid, s.lod[3].mid};
  p.lod_radius = {s.lod[0].radius, s.lod[1].radius, s.lod[2].radius, s.lod[3].radius};
  p.fade_mid = {s.fade[0].mid, s.fade[1].mid, s.fade[2].mid, s.fade[3].mid};
  p.fade_radius = {s.fade[0].radius, s.fade[1].radius, s.fade[2].radius, s.fade[3].radius};
  return p;
}

VegetationGpuType VegetationCull::make_pool(const vegetation::RuntimeWorld::Type& type,
                                            std::span<const MeshRange> meshes, float band, float fade,
                                            std::uint32_t page_capacity, std::span<const Aabb> lod_bounds,
                                            VegetationGpuType* grown_from,
                                            VegetationPoolBuffers* made) const {
  page_capacity = std::max({page_capacity, type.page_count(), 1u});
  if (made && made->page_capacity < page_capacity)
    throw Error("buffers made for " + std::to_string(made->page_capacity) + " pages, " +
                    std::to_string(page_capacity) + " wanted",
                "VegetationCull::make_pool");
  VegetationPoolBuffers buffers = made ? std::move(*made) : make_pool_buffers(page_capacity);
  page_capacity = buffers.page_capacity;
  VegetationGpuType g;
  g.page_capacity = page_capacity;
  g.capacity = page_capacity * vegetation::kPageSlots;
  g.decode = &decode_;
  g.lod = vegetation::make_hashed_lod(type.prefab.lods, band, fade);
  g.shape = type.shape;
  g.lod_shapes = vegetation::make_lod_shapes(lod_bounds, type.shape);
  g.motion = plant_motion_type(type.prefab.bounds.valid() ? type.prefab.bounds.max.y : 0.0f);
  for (std::size_t l = 0; l < meshes.size() && l < vegetation::kGpuMaxLods; ++l) g.meshes[l] = meshes[l];
  g.records = std::move(buffers.records);
  g.pages = std::move(buffers.pages);
  g.lists = std::move(buffers.lists);
  g.visibility = std::move(buffers.visibility);
  if (grown_from) {  // rewritten every frame (args, hiz, counters) or by the caller (params)
    g.params = std::move(grown_from->params);
    g.args = std::move(grown_from->args);
    g.hiz = std::move(grown_from->hiz);
    g.counters = std::move(grown_from->counters);
  } else {
    g.params = gpu::make_storage_buffer(ctx_, sizeof(shader::VegCullParams));
    g.args = gpu::make_storage_buffer(ctx_, VEG_ARGS_BYTES, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    g.hiz = gpu::make_storage_buffer(ctx_, sizeof(shader::HizParams));
    g.counters = gpu::make_storage_buffer(ctx_, sizeof(shader::CullCounters));
  }
  return g;
}

VegetationPoolBuffers VegetationCull::make_pool_buffers(std::uint32_t page_capacity) const {
  if (page_capacity == 0 || std::uint64_t(page_capacity) * vegetation::kPageSlots > VEG_SLOT_MASK + 1ull)
    throw Error("vegetation pool of " + std::to_string(page_capacity) + " pages is outside 1 to the " +
                    std::to_string((VEG_SLOT_MASK + 1ull) / vegetation::kPageSlots) +
                    " a list entry can name",
                "VegetationCull");
  const VkDeviceSize slots = VkDeviceSize(page_capacity) * vegetation::kPageSlots;
  VegetationPoolBuffers b;
  b.page_capacity = page_capacity;
  b.records = gpu::make_storage_buffer(ctx_, slots * sizeof(vegetation::PlantRecord));
  b.pages = gpu::make_storage_buffer(ctx_, VkDeviceSize(page_capacity) * sizeof(vegetation::PlantPage));
  static_assert(VEG_LISTS == vegetation::kGpuMaxLods);
  b.lists = gpu::make_storage_buffer(ctx_, 2 * slots * sizeof(std::uint32_t));
  b.visibility = gpu::make_storage_buffer(ctx_, slots * sizeof(std::uint32_t));
  return b;
}

VegetationGpuType VegetationCull::upload(const vegetation::RuntimeWorld::Type& type,
                                         std::span<const MeshRange> meshes, float band, float fade,
                                         std::span<const Aabb> lod_bounds) const {
  if (type.instances == 0) throw Error("VegetationCull::upload: empty runtime type");
  VegetationGpuType g = make_pool(type, meshes, band, fade, type.page_count(), lod_bounds);
  g.segments = type.segments;
  gpu::upload(ctx_, g.visibility, std::span<const std::uint32_t>(std::vector<std::uint32_t>(g.capacity, 0u)));
  std::vector<vegetation::PlantRecord> records(g.capacity);
  for (std::uint32_t p = 0; p < type.page_count(); ++p)
    std::copy_n(type.page_records(p), vegetation::kPageSlots,
                records.begin() + std::ptrdiff_t(p) * vegetation::kPageSlots);
  gpu::upload(ctx_, g.records, std::span<const vegetation::PlantRecord>(records));
  gpu::upload(ctx_, g.pages, std::span<const vegetation::PlantPage>(type.pages));
  const shader::VegCullParams p = params(g);
  gpu::upload(ctx_, g.params, std::span<const shader::VegCullParams>(&p, 1));
  return g;
}

VegetationCpuLists VegetationCull::stage_cpu_lists(VkCommandBuffer cmd, const VegetationGpuType& g,
                                                   const vegetation::PoolLists& lists) const {
  VegetationCpuLists out;
  std::array<std::uint32_t, vegetation::kGpuMaxLods> kept{};
  std::size_t total = 0;
  for (std::uint32_t pair = 0; pair < 2; ++pair) {
    // The pair shares its region: the even list first, the odd one with what is left.
    const std::uint32_t even = pair * 2, odd = even + 1;
    kept[even] = static_cast<std::uint32_t>(std::min<std::size_t>(lists[even].size(), g.capacity));
    kept[odd] = static_cast<std::uint32_t>(std::min<std::size_t>(lists[odd].size(), g.capacity - kept[even]));
    out.first[even] = pair * g.capacity;
    out.first[odd] = (pair + 1) * g.capacity - kept[odd];
    for (const std::uint32_t l : {even, odd}) {
      out.count[l] = kept[l];
      out.overflow += static_cast<std::uint32_t>(lists[l].size() - kept[l]);
      total += kept[l];
    }
  }
  if (total == 0) return out;
  gpu::StagingRing& ring = ctx_.staging_ring();
  const gpu::StagingRing::Span span = ctx_.uploads().reserve(upload_share_, total * sizeof(std::uint32_t));
  std::array<VkBufferCopy, vegetation::kGpuMaxLods> regions{};
  std::uint32_t n = 0;
  VkDeviceSize at = 0;
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
    if (kept[l] == 0) continue;
    const VkDeviceSize bytes = VkDeviceSize(kept[l]) * sizeof(std::uint32_t);
    std::memcpy(span.data + at, lists[l].data(), bytes);
    regions[n++] = {span.offset + at, VkDeviceSize(out.first[l]) * sizeof(std::uint32_t), bytes};
    at += bytes;
  }
  ring.flush();
  // Earlier draws' reads of the lists finish before they are rewritten, and an earlier staging's copy
  // (the shadow view's lists, then the camera's, in one frame) is ordered before this one.
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT);
  vkCmdCopyBuffer(cmd, span.buffer, g.lists.handle(), n, regions.data());
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  return out;
}

std::uint32_t VegetationCull::record(VkCommandBuffer cmd, const Frustum& frustum, glm::vec3 camera,
                                     const VegetationGpuType& g, const VegetationHiz* hiz,
                                     VegetationPass pass) const {
  // The live pages of the segments that pass the group test, listed where the pass reads them.
  std::vector<std::uint32_t>& live = live_;  // scratch: no allocation once it has grown
  live.clear();
  std::uint32_t dispatched = 0;
  for (const auto& seg : g.segments) {
    if (!vegetation::group_visible(frustum, seg.bounds, camera, g.lod)) continue;
    for (std::uint32_t page : seg.pages)
      if (page < g.page_capacity) live.push_back(page);  // past it would be a bug upstream
    ++dispatched;
  }
  gpu::StagingRing& ring = ctx_.staging_ring();
  const gpu::StagingRing::Span list =
      ctx_.uploads().reserve(upload_share_, std::max<VkDeviceSize>(live.size(), 1) * sizeof(std::uint32_t),
                             std::max<VkDeviceSize>(ctx_.limits().minStorageBufferOffsetAlignment, 16));
  if (!live.empty()) std::memcpy(list.data, live.data(), live.size() * sizeof(std::uint32_t));
  ring.flush();

  shader::VegCullArgs args{};
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
    // Lists 0 and 2 grow up from their region's start, 1 and 3 down from its end.
    const std::uint32_t start = (l / 2 + (l & 1u)) * g.capacity;
    args.args[l] = indexed_command(g.meshes[l], start);
  }
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
  push.page_count = static_cast<std::uint32_t>(live.size());
  push.phase = static_cast<std::uint32_t>(pass);
  // The late pass's bindings; the others bind the first nine (no pyramid).
  const std::array bindings{gpu::storage_buffer(g.records),
                            gpu::storage_buffer(g.pages),
                            gpu::storage_buffer(*g.decode),
                            gpu::storage_buffer(g.params),
                            gpu::storage_buffer(list.buffer, list.offset, list.size),
                            gpu::storage_buffer(g.lists),
                            gpu::storage_buffer(g.args),
                            gpu::storage_buffer(g.visibility),
                            gpu::storage_buffer(g.counters),
                            gpu::sampled_image(hiz ? hiz->sampler : VK_NULL_HANDLE,
                                               hiz ? hiz->pyramid : VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL),
                            gpu::storage_buffer(g.hiz)};
  for (std::uint32_t first = 0; first < live.size(); first += kMaxGroupsPerDispatch) {
    push.first_page = first;
    if (test_pyramid)
      gpu::bind(ctx_, cmd, hiz_pipeline_, bindings, &push, sizeof(push));
    else
      gpu::bind(ctx_, cmd, pipeline_, std::span(bindings).first(9), &push, sizeof(push));
    vkCmdDispatch(cmd, std::min<std::uint32_t>(kMaxGroupsPerDispatch, std::uint32_t(live.size()) - first), 1,
                  1);
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                          VK_ACCESS_2_TRANSFER_READ_BIT);
  return dispatched;
}

}  // namespace myriad::render
