#include "myriad/render/voxel/voxel_vegetation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <tuple>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/shaders/voxel_vegetation_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

static_assert(MYRIAD_TREE_VARIANTS == voxel::kTreeVariants);

constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;  // fills a freed slot: template / type 0xFFFF
// The read-back of one command set: the grass's near and far draws, then the trees' draw.
constexpr VkDeviceSize kGrassDrawBytes = 2 * sizeof(shader::DrawCommand);
constexpr VkDeviceSize kTreeDrawBytes = sizeof(shader::DrawCommand);
constexpr VkDeviceSize kCountBytes = kGrassDrawBytes + kTreeDrawBytes;
constexpr std::uint32_t kGroup = 64;  // the culling and wind shaders' workgroup size
constexpr float kGrassReach = float(MYRIAD_GRASS_REACH);

// The baked templates one after another, each padded to the longest with degenerate triangles (all
// corners at the root: no fragments), so one instanced draw covers trees of every template.
std::vector<shader::TreeVertexGpu> tree_templates(std::uint64_t seed, std::uint32_t& stride) {
  const std::vector<voxel::TreeTemplateMesh> meshes = voxel::bake_tree_templates(seed);
  std::size_t longest = 0;
  for (const auto& m : meshes) longest = std::max(longest, m.positions.size());
  stride = std::uint32_t(longest);
  std::vector<shader::TreeVertexGpu> v(longest * meshes.size(),
                                       {glm::vec4(0.0f), glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)});
  for (std::size_t t = 0; t < meshes.size(); ++t)
    for (std::size_t i = 0; i < meshes[t].positions.size(); ++i)
      v[t * longest + i] = {meshes[t].positions[i], glm::vec4(meshes[t].normals[i], 0.0f)};
  return v;
}

}  // namespace

void VoxelVegetationOptions::validate() const {
  if (grass_capacity >= (1u << 30))
    throw Error("instance capacities must be below 2^30", "VoxelVegetationOptions::grass_capacity");
  if (tree_capacity >= (1u << 30))
    throw Error("instance capacities must be below 2^30", "VoxelVegetationOptions::tree_capacity");
  if (!(lod_distance >= 0.0f) || !std::isfinite(lod_distance))
    throw Error("the LOD distance must be a finite number of metres >= 0",
                "VoxelVegetationOptions::lod_distance");
  if (!(max_distance > 0.0f) || !std::isfinite(max_distance))
    throw Error("the draw distance must be a finite number of metres > 0",
                "VoxelVegetationOptions::max_distance");
  if (upload_budget == 0)
    throw Error("the voxel vegetation's upload budget is zero", "VoxelVegetationOptions::upload_budget");
}

VoxelVegetationRenderer::VoxelVegetationRenderer(gpu::Context& ctx, glm::ivec3 sections,
                                                 VkFormat color_format, VkFormat depth_format,
                                                 const VoxelVegetationOptions& config)
    : ctx_(ctx),
      config_(config),
      share_((config.validate(), ctx.uploads().share("voxel vegetation", config.upload_budget))),
      section_tree_bounds_(std::size_t(sections.x * sections.y * sections.z)),
      groups_(std::uint32_t(sections.x), std::uint32_t(sections.y), std::uint32_t(sections.z)),
      overflow_(ctx),
      counts_(ctx, 2 * kCountBytes),
      grass_two_phase_(ctx),
      tree_two_phase_(ctx),
      shadow_receiver_(ctx),
      motion_(ctx) {
  const std::size_t n = section_tree_bounds_.size();
  for (auto [pool, stride, slack, capacity] :
       {std::tuple{&grass_, sizeof(voxel::GrassInstance), config.grass_section_slack, config.grass_capacity},
        std::tuple{&trees_, sizeof(voxel::TreeInstance), config.tree_section_slack, config.tree_capacity}}) {
    pool->stride = stride;
    pool->slack = slack;
    pool->capacity = std::max(capacity, 16u);
    pool->ranges = RangeAllocator(pool->capacity, slack);
    pool->allocated.assign(n, Range{});
    pool->count.assign(n, 0);
    pool->data.assign(n, {});
    // The live ranges: a header and at most one entry per section.
    pool->table =
        gpu::make_storage_buffer(ctx, sizeof(shader::VoxelVegetationRanges) + n * 2 * sizeof(std::uint32_t));
  }
  create_pool_buffers(grass_, false);
  create_pool_buffers(trees_, true);
  for (int set = 0; set < 2; ++set) {
    grass_draws_[set] =
        gpu::make_storage_buffer(ctx, 2 * sizeof(shader::DrawCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    tree_draws_[set] =
        gpu::make_storage_buffer(ctx, sizeof(shader::DrawCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  }
  const std::vector<shader::TreeVertexGpu> tmpl = tree_templates(config.template_seed, template_stride_);
  template_ = gpu::make_storage_buffer(ctx, tmpl.size() * sizeof(shader::TreeVertexGpu));
  gpu::upload(ctx, template_, std::span<const shader::TreeVertexGpu>(tmpl));

  const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  // Instances, draws, visible list, overflow / ranges; then the two-phase state's.
  const std::uint32_t push_bytes = sizeof(shader::VoxelVegetationCullPush);
  grass_cull_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_grass_cull_comp(), 5, push_bytes, false);
  grass_cull_hiz_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_grass_cull_hiz_comp(), 5, push_bytes, true);
  tree_cull_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_tree_cull_comp(), 5, push_bytes, false);
  tree_cull_hiz_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_tree_cull_hiz_comp(), 5, push_bytes, true);
  tree_wind_ = gpu::make_compute_pipeline(ctx, spirv::voxel_tree_wind_comp(),
                                          {{sb, sb, sb}, sizeof(shader::VoxelTreeWindPush)});
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::voxel_grass_vert();
  b.layout = {{sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  b.cull_mode = VK_CULL_MODE_NONE;  // blades are seen from both sides
  grass_draw_ = build_shadow_receiver(ctx, b, spirv::voxel_grass_frag(), {}, color_format, depth_format);
  b.vertex = spirv::voxel_tree_vert();
  b.layout = {{sb, sb, sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  b.dynamic_cull_mode = true;  // back faces only while a slice cuts the trees: they draw the cut (V14)
  tree_draw_ = build_shadow_receiver(ctx, b, spirv::voxel_tree_frag(), {}, color_format, depth_format);
  b.dynamic_cull_mode = false;
  b.cull_mode = VK_CULL_MODE_BACK_BIT;
  b.vertex = spirv::voxel_tree_shadow_vert();
  b.layout = {{sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  tree_shadow_ = build_shadow_caster(ctx, b);
}

VoxelVegetationRenderer::~VoxelVegetationRenderer() {
  // Nothing pending (a new array's clear, an emptied range) may write the buffers once they are gone.
  gpu::UploadQueue& uploads = ctx_.uploads();
  for (const gpu::Buffer* b : {&grass_.instances, &grass_.table, &trees_.instances, &trees_.table, &sway_})
    uploads.drop(b->handle());
  uploads.release(share_);
}

void VoxelVegetationRenderer::create_pool_buffers(Pool& pool, bool trees) {
  const VkDeviceSize slots = pool.capacity;
  pool.instances = gpu::make_storage_buffer(ctx_, slots * pool.stride);
  // Every slot starts empty: queued now, so the clear precedes any copy into the new array.
  gpu::UploadQueue& uploads = ctx_.uploads();
  uploads.clear(pool.instances, kEmpty);
  cleared_ = true;
  for (int set = 0; set < 2; ++set) {
    // Grass: the near list from 0, the far list from `capacity`.
    (trees ? tree_visible_ : grass_visible_)[set] =
        gpu::make_storage_buffer(ctx_, slots * (trees ? 1 : 2) * sizeof(std::uint32_t));
  }
  (trees ? tree_two_phase_ : grass_two_phase_).reserve(pool.capacity);
  if (trees) {
    uploads.drop(sway_.handle());  // the old one's pending clear
    sway_ = gpu::make_storage_buffer(ctx_, slots * sizeof(glm::vec2));
    // Defined before the first wind pass writes it (a shadow pass may read it first).
    uploads.clear(sway_, 0);
  }
  tracker_.invalidate();  // the lists and the two-phase state start over
  lists_ = Lists::kNone;
  wind_version_ = 0;
}

void VoxelVegetationRenderer::stage(int section, const gpu::Buffer& dst, VkDeviceSize dst_offset,
                                    std::span<const std::byte> bytes) {
  ctx_.uploads().enqueue(share_, dst.handle(), dst_offset, bytes, section);
}

void VoxelVegetationRenderer::empty_slots(VkBuffer dst, VkDeviceSize offset, VkDeviceSize size) {
  ctx_.uploads().fill(dst, offset, size, kEmpty);
  fill_bytes_ += size;
}

void VoxelVegetationRenderer::stage_table(Pool& pool) {
  std::vector<std::uint32_t>& table = table_scratch_;  // kept: rebuilt in frames that place plants
  table.assign(4, 0);
  std::uint32_t prefix = 0, entries = 0;
  for (std::size_t s = 0; s < pool.count.size(); ++s) {
    if (pool.count[s] == 0) continue;
    table.push_back(pool.allocated[s].offset);
    table.push_back(prefix);
    prefix += pool.count[s];
    ++entries;
  }
  table[0] = entries;
  table[1] = prefix;
  const VkBuffer dst = pool.table.handle();
  ctx_.uploads().drop(dst);  // superseded
  stage(-1, pool.table, 0, std::as_bytes(std::span(table)));
  pool.table_dirty = false;
}

void VoxelVegetationRenderer::grow(Pool& pool, std::uint32_t extra) {
  std::uint64_t needed = std::uint64_t(extra) + pool.slack;
  for (std::size_t s = 0; s < pool.count.size(); ++s)
    if (pool.count[s] > 0) needed += pool.count[s] + pool.slack;
  const std::uint64_t capacity =
      std::max<std::uint64_t>(needed + needed / 4, pool.capacity + pool.capacity / 2);
  if (capacity >= (1u << 30))
    throw Error("voxel vegetation capacity exceeded (2^30 instances)", "VoxelVegetationRenderer");
  // Everything waiting for the old array goes; every section is placed again in the new one.
  ctx_.uploads().drop(pool.instances.handle());
  pool.capacity = std::uint32_t(capacity);
  pool.ranges = RangeAllocator(pool.capacity, pool.slack);
  create_pool_buffers(pool, &pool == &trees_);
  for (std::size_t s = 0; s < pool.count.size(); ++s) {
    pool.allocated[s] = Range{};
    if (pool.count[s] == 0) continue;
    const std::optional<Range> r = pool.ranges.allocate(pool.count[s]);
    if (!r) throw Error("voxel vegetation: re-packing failed", "VoxelVegetationRenderer");
    pool.allocated[s] = *r;
    stage(int(s), pool.instances, VkDeviceSize(r->offset) * pool.stride, pool.data[s]);
  }
  pool.table_dirty = true;
}

void VoxelVegetationRenderer::place(Pool& pool, int section, std::span<const std::byte> bytes) {
  const auto s = std::size_t(section);
  const auto n = std::uint32_t(bytes.size() / pool.stride);
  const VkBuffer dst = pool.instances.handle();
  // This section's copies still waiting in the upload queue are superseded.
  ctx_.uploads().drop(dst, section);
  const std::uint32_t old = pool.count[s];
  pool.data[s].assign(bytes.begin(), bytes.end());
  pool.live = pool.live - old + n;
  pool.count[s] = n;
  if (old != 0 || n != 0) pool.table_dirty = true;
  Range& r = pool.allocated[s];
  if (n > 0 && r.size > 0 && RangeAllocator::fits_in_place(r, n)) {
    // In place: the new instances over the old, the old tail emptied.
    if (old > n)
      empty_slots(dst, VkDeviceSize(r.offset + n) * pool.stride, VkDeviceSize(old - n) * pool.stride);
    stage(section, pool.instances, VkDeviceSize(r.offset) * pool.stride, bytes);
    return;
  }
  if (r.size > 0) {  // the old range becomes empty slots
    if (old > 0) empty_slots(dst, VkDeviceSize(r.offset) * pool.stride, VkDeviceSize(old) * pool.stride);
    pool.ranges.free(r);
    r = Range{};
  }
  if (n == 0) return;
  const std::optional<Range> a = pool.ranges.allocate(n);
  if (!a) {
    grow(pool, 0);  // re-packs every section, this one included
    return;
  }
  r = *a;
  stage(section, pool.instances, VkDeviceSize(r.offset) * pool.stride, bytes);
}

void VoxelVegetationRenderer::update_group(int section, const voxel::SectionVegetation& v) {
  Aabb trees;
  for (const auto& t : v.trees) {
    const float h = float(t.type_height >> 16) / 16.0f;
    trees.expand(glm::vec3(t.px - 0.5f * h - 0.5f, t.py, t.pz - 0.5f * h - 0.5f));
    trees.expand(glm::vec3(t.px + 0.5f * h + 0.5f, t.py + h, t.pz + 0.5f * h + 0.5f));
  }
  section_tree_bounds_[std::size_t(section)] = trees;
  if (v.grass.empty() && v.trees.empty()) {
    groups_.set_page(std::uint32_t(section), Aabb{}, 0xffffffffu);  // no vegetation here
    return;
  }
  Aabb bounds;
  for (const auto& g : v.grass) {
    // A tuft, tilted with its slope, swayed or trodden, stays within its culling sphere about the root
    // and reaches at most half a cell below its root.
    bounds.expand(glm::vec3(g.px - kGrassReach, g.py - 0.5f, g.pz - kGrassReach));
    bounds.expand(glm::vec3(g.px, g.py, g.pz) + glm::vec3(kGrassReach));
  }
  if (!v.trees.empty()) bounds.expand(trees);
  groups_.set_page(std::uint32_t(section), bounds, 0);  // one "arena": the vegetation passes
}

void VoxelVegetationRenderer::set_section(int section, const voxel::SectionVegetation& v) {
  if (section < 0 || std::size_t(section) >= section_tree_bounds_.size())
    throw Error("section index out of range", "VoxelVegetationRenderer::set_section");
  place(grass_, section, std::as_bytes(std::span(v.grass)));
  place(trees_, section, std::as_bytes(std::span(v.trees)));
  update_group(section, v);
  ++version_;
}

void VoxelVegetationRenderer::upload(VkCommandBuffer cmd) {
  stats_ = {};
  shadow_run_count_ = 0;
  gpu::UploadQueue& uploads = ctx_.uploads();
  for (Pool* pool : {&grass_, &trees_})
    if (pool->table_dirty) stage_table(*pool);
  // Clears, emptied ranges, then the section instances and range tables within the share's budget;
  // what does not fit waits for a later frame (those slots read as empty until then).
  uploads.record(cmd);
  const std::uint64_t staged = uploads.staged_total(share_) - reported_staged_;
  reported_staged_ += staged;
  stats_.uploaded_bytes = fill_bytes_ + staged;
  stats_.pending_copies = uploads.queued_copies(share_);
  // The slots the culling reads changed: cull again (V13).
  if (stats_.uploaded_bytes > 0 || cleared_) ++version_;
  fill_bytes_ = 0;
  cleared_ = false;
}

void VoxelVegetationRenderer::dispatch(VkCommandBuffer cmd, std::uint32_t live) {
  if (live == 0) return;
  const std::uint32_t groups = (live + kGroup - 1) / kGroup;
  vkCmdDispatch(cmd, groups, 1, 1);
  stats_.threads += std::uint64_t(groups) * kGroup;
  ++stats_.dispatches;
}

bool VoxelVegetationRenderer::wind_stale(float time) const {
  const WindParams& w = motion_.wind();
  return trees_.live > 0 &&
         (wind_version_ != version_ || time != wind_time_ || motion_.address() != wind_address_ ||
          std::memcmp(&w, &wind_params_, sizeof(WindParams)) != 0);
}

void VoxelVegetationRenderer::record_wind(VkCommandBuffer cmd, float time) {
  shader::VoxelTreeWindPush push{};
  push.time = time;
  push.motion = motion_.address_words();
  const std::array bindings{gpu::storage_buffer(trees_.instances), gpu::storage_buffer(trees_.table),
                            gpu::storage_buffer(sway_)};
  gpu::bind(ctx_, cmd, tree_wind_, bindings, &push, sizeof(push));
  dispatch(cmd, trees_.live);
  ++stats_.pipeline_binds;
  wind_time_ = time;
  wind_version_ = version_;
  wind_address_ = motion_.address();
  wind_params_ = motion_.wind();
}

void VoxelVegetationRenderer::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                                   const DepthPyramid* pyramid) {
  const std::uint32_t set = phase == FramePhase::kLate ? 1u : 0u;
  if (phase == FramePhase::kLate) {
    if (reuse_frame_) return;
    lists_ = Lists::kTwoPhase;
    if (stats_.skipped) return;
  } else {
    // V13: the same view, slice and instances as the last culling of the same kind: its lists stand.
    const CullInputs inputs{view.view_proj, view.slice_height, version_};
    const Lists kind = phase == FramePhase::kSingle ? Lists::kSingle : Lists::kTwoPhase;
    reuse_frame_ = !tracker_.needs_cull(inputs) && lists_ == kind;
    if (reuse_frame_) {
      stats_.reused = true;
      stats_.skipped = last_skipped_;
    } else {
      tracker_.culled(inputs);
      lists_ = phase == FramePhase::kSingle ? Lists::kSingle : Lists::kEarly;
      stats_.group_tests = groups_.visible_arenas(view.frustum, view.slice_height, 1, group_visible_);
      stats_.skipped = last_skipped_ = !group_visible_[0];
    }
    if (stats_.skipped) return;
  }
  // The wind, once per frame whose time, wind or trees changed (unless the shadow pass did it): one
  // thread per live tree.
  const bool wind = phase != FramePhase::kLate && wind_stale(view.time);
  if (reuse_frame_ && !wind) return;
  if (!reuse_frame_) {
    grass_two_phase_.record_begin(cmd, phase, view.view_proj, pyramid);
    tree_two_phase_.record_begin(cmd, phase, view.view_proj, pyramid);
  }
  // Earlier draws (and the shadow pass) finish reading the lists, draws and sway before they are
  // rewritten.
  gpu::before_output_reset(cmd);
  if (!reuse_frame_) {
    const std::array<shader::DrawCommand, 2> grass_init{{{12, 0, 0, 0}, {6, 0, 0, grass_.capacity}}};
    const shader::DrawCommand tree_init{template_stride_, 0, 0, 0};
    vkCmdUpdateBuffer(cmd, grass_draws_[set].handle(), 0, sizeof(grass_init), grass_init.data());
    vkCmdUpdateBuffer(cmd, tree_draws_[set].handle(), 0, sizeof(tree_init), &tree_init);
    if (phase != FramePhase::kLate) overflow_.record_reset(cmd);
    gpu::after_output_reset(cmd);
  }
  if (wind) record_wind(cmd, view.time);
  if (reuse_frame_) {
    gpu::after_cull_dispatch(cmd);
    return;
  }

  const std::uint32_t phase_bits = static_cast<std::uint32_t>(phase) << 30;
  shader::VoxelVegetationCullPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i) push.planes[i] = view.frustum.planes[std::size_t(i)].as_vec4();
  push.camera = glm::vec4(view.eye, config_.lod_distance);
  push.slice_height = view.slice_height;
  push.max_distance = config_.max_distance;
  push.time = view.time;
  if (grass_.live > 0) {
    push.capacity_phase = grass_.capacity | phase_bits;
    grass_two_phase_.bind(cmd, grass_cull_, grass_cull_hiz_,
                          {gpu::storage_buffer(grass_.instances), gpu::storage_buffer(grass_draws_[set]),
                           gpu::storage_buffer(grass_visible_[set]), gpu::storage_buffer(overflow_.buffer()),
                           gpu::storage_buffer(grass_.table)},
                          phase, pyramid, &push, sizeof(push));
    dispatch(cmd, grass_.live);  // one thread per live instance, none for empty slots
    ++stats_.pipeline_binds;
  }
  if (trees_.live > 0) {
    push.capacity_phase = trees_.capacity | phase_bits;
    tree_two_phase_.bind(cmd, tree_cull_, tree_cull_hiz_,
                         {gpu::storage_buffer(trees_.instances), gpu::storage_buffer(tree_draws_[set]),
                          gpu::storage_buffer(tree_visible_[set]), gpu::storage_buffer(trees_.table),
                          gpu::storage_buffer(overflow_.buffer())},
                         phase, pyramid, &push, sizeof(push));
    dispatch(cmd, trees_.live);
    ++stats_.pipeline_binds;
  }
  gpu::after_cull_dispatch(cmd);
  overflow_.record_readback(cmd);
  grass_two_phase_.record_end(cmd, phase);
  tree_two_phase_.record_end(cmd, phase);
  late_culled_ = phase == FramePhase::kLate;
  if (phase == FramePhase::kEarly) return;
  // The frame's draw counts for read_counts(), copied in the frame (no read-back submission).
  for (std::uint32_t s = 0; s < (late_culled_ ? 2u : 1u); ++s) {
    counts_.record_copy(cmd, grass_draws_[s], 0, kGrassDrawBytes, s * kCountBytes);
    counts_.record_copy(cmd, tree_draws_[s], 0, kTreeDrawBytes, s * kCountBytes + kGrassDrawBytes);
  }
  counts_.record_host_barrier(cmd);
}

void VoxelVegetationRenderer::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                                   const ShadowMap* shadow) {
  if (stats_.skipped) return;
  const std::uint32_t set = phase == FramePhase::kLate ? 1u : 0u;
  shader::VoxelVegetationDrawPush push{view.view_proj,
                                       glm::vec4(view.eye, 0.0f),
                                       glm::vec4(view.to_light, 0.0f),
                                       view.slice_height,
                                       0,
                                       template_stride_,
                                       view.time,
                                       motion_.address_words(),
                                       0,
                                       0};
  const std::array<gpu::Binding, 2> sb = shadow_receiver_.bindings(shadow);
  const std::array grass_bindings{gpu::storage_buffer(grass_.instances),
                                  gpu::storage_buffer(grass_draws_[set]),
                                  gpu::storage_buffer(grass_visible_[set]), sb[0], sb[1]};
  const gpu::Pipeline& grass_draw = grass_draw_.of(view);
  gpu::bind(ctx_, cmd, grass_draw, grass_bindings, &push, sizeof(push));
  vkCmdDrawIndirect(cmd, grass_draws_[set].handle(), 0, 1, sizeof(shader::DrawCommand));
  push.lod = 1;
  vkCmdPushConstants(cmd, grass_draw.layout(), grass_draw.stages(), 0, sizeof(push), &push);
  vkCmdDrawIndirect(cmd, grass_draws_[set].handle(), sizeof(shader::DrawCommand), 1,
                    sizeof(shader::DrawCommand));
  push.lod = 0;
  const std::array tree_bindings{gpu::storage_buffer(trees_.instances),
                                 gpu::storage_buffer(tree_draws_[set]),
                                 gpu::storage_buffer(tree_visible_[set]),
                                 gpu::storage_buffer(sway_),
                                 gpu::storage_buffer(template_),
                                 sb[0],
                                 sb[1]};
  gpu::bind(ctx_, cmd, tree_draw_.of(view), tree_bindings, &push, sizeof(push));
  // A slice opens trunks and crowns: their inside faces, seen through the cut, are drawn as the cut's
  // solid face (voxel_tree.frag); without a slice nothing inside can be seen and back faces are culled.
  vkCmdSetCullMode(cmd, view.slice_height < kNoSlice ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT);
  vkCmdDrawIndirect(cmd, tree_draws_[set].handle(), 0, 1, sizeof(shader::DrawCommand));
  stats_.draws += 3;
  stats_.pipeline_binds += 2;
}

void VoxelVegetationRenderer::cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  // Sections whose trees can reach into the shadow view, as slot ranges sorted by offset.
  shadow_runs_.clear();
  shadow_run_count_ = 0;
  const glm::vec3 camera = shadow_view.eye;
  for (std::size_t s = 0; s < section_tree_bounds_.size(); ++s) {
    const Range r = trees_.live_range(int(s));
    const Aabb& b = section_tree_bounds_[s];
    if (r.size == 0 || b.min.y > shadow_view.slice_height || !shadow_view.frustum.intersects(b)) continue;
    const glm::vec3 nearest = glm::clamp(camera, b.min, b.max);
    if (glm::distance(camera, nearest) > config_.max_distance) continue;
    shadow_runs_.push_back(r);
  }
  if (shadow_runs_.empty()) return;
  std::sort(shadow_runs_.begin(), shadow_runs_.end(),
            [](const Range& a, const Range& b) { return a.offset < b.offset; });
  // Runs a few slots apart become one draw: the slots between are rejected by the vertex shader.
  constexpr std::uint32_t kMergeGap = 64;
  std::size_t runs = 0;
  for (const Range& r : shadow_runs_) {
    Range& last = shadow_runs_[runs == 0 ? 0 : runs - 1];
    if (runs > 0 && r.offset <= last.offset + last.size + kMergeGap) {
      last.size = std::max(last.offset + last.size, r.offset + r.size) - last.offset;
    } else {
      shadow_runs_[runs++] = r;
    }
  }
  shadow_run_count_ = runs;
  // The casters read this frame's sway: computed here when it is stale (the camera's cull then keeps it).
  if (wind_stale(shadow_view.time)) {
    gpu::before_output_reset(cmd);
    record_wind(cmd, shadow_view.time);
    gpu::after_cull_dispatch(cmd);
  }
}

std::uint32_t VoxelVegetationRenderer::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  const std::size_t runs = shadow_run_count_;
  if (runs == 0) return 0;
  const shader::VoxelVegetationDrawPush push{shadow_view.view_proj,
                                             glm::vec4(shadow_view.eye, config_.max_distance),
                                             glm::vec4(0.0f),
                                             shadow_view.slice_height,
                                             0,
                                             template_stride_,
                                             shadow_view.time,
                                             motion_.address_words(),
                                             0,
                                             0};
  const std::array bindings{gpu::storage_buffer(trees_.instances), gpu::storage_buffer(sway_),
                            gpu::storage_buffer(template_)};
  gpu::bind(ctx_, cmd, tree_shadow_, bindings, &push, sizeof(push));
  for (std::size_t i = 0; i < runs; ++i) {
    vkCmdDraw(cmd, template_stride_, shadow_runs_[i].size, 0, shadow_runs_[i].offset);
    stats_.shadow_tree_slots += shadow_runs_[i].size;
  }
  stats_.shadow_draws += std::uint32_t(runs);
  return std::uint32_t(runs);
}

VoxelVegetationCounts VoxelVegetationRenderer::read_counts() {
  VoxelVegetationCounts c;
  if (stats_.skipped) return c;  // nothing culled or drawn this frame
  for (std::uint32_t set = 0; set < (late_culled_ ? 2u : 1u); ++set) {
    const auto g = counts_.read<shader::DrawCommand>(set * kCountBytes, 2);
    const auto t = counts_.read<shader::DrawCommand>(set * kCountBytes + kGrassDrawBytes, 1);
    c.grass_near += g[0].instance_count;
    c.grass_far += g[1].instance_count;
    c.trees += t[0].instance_count;
    for (const shader::DrawCommand& d : {g[0], g[1], t[0]})
      c.vertices += std::uint64_t(d.vertex_count) * d.instance_count;
  }
  return c;
}

std::vector<std::uint32_t> VoxelVegetationRenderer::read_visible_grass(bool far, std::uint32_t set) {
  const auto g = gpu::read_buffer_as<shader::DrawCommand>(ctx_, grass_draws_[set], 2);
  const std::uint32_t n = g[far ? 1 : 0].instance_count;
  if (n == 0) return {};
  return gpu::read_buffer_as<std::uint32_t>(ctx_, grass_visible_[set], n,
                                            far ? VkDeviceSize(grass_.capacity) * 4 : 0);
}

std::vector<std::uint32_t> VoxelVegetationRenderer::read_visible_trees(std::uint32_t set) {
  const auto t = gpu::read_buffer_as<shader::DrawCommand>(ctx_, tree_draws_[set], 1);
  if (t[0].instance_count == 0) return {};
  return gpu::read_buffer_as<std::uint32_t>(ctx_, tree_visible_[set], t[0].instance_count);
}

shader::CullCounters VoxelVegetationRenderer::cull_counters() const {
  if (stats_.skipped) return {};
  const shader::CullCounters g = grass_two_phase_.read(), t = tree_two_phase_.read();
  return {g.frustum_passed + t.frustum_passed, g.occluded + t.occluded};
}

CullCounts VoxelVegetationRenderer::read_cull_counts() {
  CullCounts c;
  c.candidates = live_instances();
  if (stats_.skipped) return c;
  const shader::CullCounters counters = cull_counters();
  c.frustum_passed = counters.frustum_passed;
  c.occluded = counters.occluded;
  const VoxelVegetationCounts counts = read_counts();
  c.drawn = std::uint64_t(counts.grass_near) + counts.grass_far + counts.trees;
  return c;
}

std::uint64_t VoxelVegetationRenderer::gpu_bytes() const {
  return grass_.instances.size() + grass_.table.size() + trees_.instances.size() + trees_.table.size() +
         sway_.size() + template_.size() +
         2 * (grass_visible_[0].size() + tree_visible_[0].size() + grass_draws_[0].size() +
              tree_draws_[0].size()) +
         grass_two_phase_.gpu_bytes() + tree_two_phase_.gpu_bytes();
}

SystemFrameStats VoxelVegetationRenderer::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  s.objects = live_instances();
  s.gpu_bytes = gpu_bytes();
  s.overflow = overflow();
  if (!drawn) return s;
  const VoxelVegetationCounts c = read_counts();
  s.visible = std::uint64_t(c.grass_near) + c.grass_far + c.trees;
  s.vertices = c.vertices;
  s.triangles = c.vertices / 3;
  const shader::CullCounters cc = cull_counters();
  s.frustum_culled = s.objects - std::min<std::uint64_t>(cc.frustum_passed, s.objects);
  s.occlusion_culled = cc.occluded;
  s.draws = stats_.draws;
  s.pipeline_binds = stats_.pipeline_binds;
  return s;
}

}  // namespace myriad::render
