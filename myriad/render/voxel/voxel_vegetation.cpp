#include "myriad/render/voxel/voxel_vegetation.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <tuple>

#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"
#include "myriad/render/shaders/voxel_vegetation_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;  // fills a freed slot: template / type 0xFFFF
// The read-back of one command set: the grass's near and far draws, then the trees' draw.
constexpr VkDeviceSize kGrassDrawBytes = 2 * sizeof(shader::DrawCommand);
constexpr VkDeviceSize kTreeDrawBytes = sizeof(shader::DrawCommand);
constexpr VkDeviceSize kCountBytes = kGrassDrawBytes + kTreeDrawBytes;

// Appends an axis-aligned box (36 vertices, counter-clockwise from outside) in tree-local units.
void add_box(std::vector<shader::TreeVertexGpu>& out, glm::vec3 lo, glm::vec3 hi, float kind) {
  const glm::vec3 n[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const glm::vec3& normal : n) {
    // Two tangents with t x b = normal, so (0,0)->(1,0)->(1,1) winds counter-clockwise from outside.
    const glm::vec3 t =
        std::abs(normal.y) > 0.5f ? glm::vec3(normal.y, 0, 0) : glm::vec3(-normal.z, 0, normal.x);
    const glm::vec3 b = glm::cross(normal, t);
    const glm::vec3 centre = (lo + hi) * 0.5f, half = (hi - lo) * 0.5f;
    auto corner = [&](float u, float v) { return centre + (normal + t * u + b * v) * half; };
    const glm::vec2 quad[6] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (const glm::vec2& q : quad)
      out.push_back({glm::vec4(corner(q.x, q.y), kind), glm::vec4(normal, 0.0f)});
  }
}

// The tree template: a trunk of three slices (so sway bends it) under a crown of two boxes.
std::vector<shader::TreeVertexGpu> tree_template() {
  std::vector<shader::TreeVertexGpu> v;
  for (int i = 0; i < 3; ++i) {
    add_box(v, glm::vec3(-0.07f, 0.2f * float(i), -0.07f), glm::vec3(0.07f, 0.2f * float(i + 1), 0.07f),
            0.0f);
  }
  add_box(v, glm::vec3(-0.32f, 0.5f, -0.32f), glm::vec3(0.32f, 0.85f, 0.32f), 1.0f);
  add_box(v, glm::vec3(-0.2f, 0.85f, -0.2f), glm::vec3(0.2f, 1.0f, 0.2f), 1.0f);
  return v;
}

}  // namespace

VoxelVegetationRenderer::VoxelVegetationRenderer(gpu::Context& ctx, glm::ivec3 sections,
                                                 VkFormat color_format, VkFormat depth_format,
                                                 const VoxelVegetationOptions& config)
    : ctx_(ctx),
      config_(config),
      grass_ranges_(config.grass_capacity, 8),
      tree_ranges_(config.tree_capacity, 2),
      section_grass_(std::size_t(sections.x * sections.y * sections.z)),
      section_trees_(section_grass_.size()),
      section_tree_bounds_(section_grass_.size()),
      section_instances_(section_grass_.size(), 0),
      groups_(std::uint32_t(sections.x), std::uint32_t(sections.y), std::uint32_t(sections.z)),
      overflow_(ctx),
      counts_(ctx, 2 * kCountBytes),
      grass_two_phase_(ctx, config.grass_capacity),
      tree_two_phase_(ctx, config.tree_capacity),
      shadow_receiver_(ctx) {
  if (config.grass_capacity >= (1u << 30) || config.tree_capacity >= (1u << 30))
    throw Error("instance capacities must be below 2^30", "VoxelVegetationRenderer");
  grass_ = gpu::make_storage_buffer(ctx, VkDeviceSize(config.grass_capacity) * sizeof(voxel::GrassInstance));
  trees_ = gpu::make_storage_buffer(ctx, VkDeviceSize(config.tree_capacity) * sizeof(voxel::TreeInstance));
  for (int set = 0; set < 2; ++set) {
    grass_visible_[set] =
        gpu::make_storage_buffer(ctx, VkDeviceSize(config.grass_capacity) * 2 * sizeof(std::uint32_t));
    tree_visible_[set] =
        gpu::make_storage_buffer(ctx, VkDeviceSize(config.tree_capacity) * sizeof(std::uint32_t));
    grass_draws_[set] =
        gpu::make_storage_buffer(ctx, 2 * sizeof(shader::DrawCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    tree_draws_[set] =
        gpu::make_storage_buffer(ctx, sizeof(shader::DrawCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  }
  sway_ = gpu::make_storage_buffer(ctx, VkDeviceSize(config.tree_capacity) * sizeof(glm::vec2));
  // Defined before the first culling pass writes it (a shadow pass may read it first).
  gpu::upload(ctx, sway_, std::span<const glm::vec2>(std::vector<glm::vec2>(config.tree_capacity)));
  const std::vector<shader::TreeVertexGpu> tmpl = tree_template();
  template_vertices_ = std::uint32_t(tmpl.size());
  template_ = gpu::make_storage_buffer(ctx, tmpl.size() * sizeof(shader::TreeVertexGpu));
  gpu::upload(ctx, template_, std::span<const shader::TreeVertexGpu>(tmpl));

  const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  // Instances, draws, visible list, [sway,] overflow; then the two-phase state's.
  const std::uint32_t push_bytes = sizeof(shader::VoxelVegetationCullPush);
  grass_cull_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_grass_cull_comp(), 4, push_bytes, false);
  grass_cull_hiz_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_grass_cull_hiz_comp(), 4, push_bytes, true);
  tree_cull_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_tree_cull_comp(), 5, push_bytes, false);
  tree_cull_hiz_ = TwoPhaseCull::make_pipeline(ctx, spirv::voxel_tree_cull_hiz_comp(), 5, push_bytes, true);
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::voxel_grass_vert();
  b.layout = {{sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  b.cull_mode = VK_CULL_MODE_NONE;  // blades are seen from both sides
  grass_draw_ = build_shadow_receiver(ctx, b, spirv::voxel_grass_frag(), {}, color_format, depth_format);
  b.vertex = spirv::voxel_tree_vert();
  b.layout = {{sb, sb, sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  b.cull_mode = VK_CULL_MODE_BACK_BIT;
  tree_draw_ = build_shadow_receiver(ctx, b, spirv::voxel_tree_frag(), {}, color_format, depth_format);
  b.vertex = spirv::voxel_tree_shadow_vert();
  b.layout = {{sb, sb, sb}, sizeof(shader::VoxelVegetationDrawPush)};
  tree_shadow_ = build_shadow_caster(ctx, b);
}

void VoxelVegetationRenderer::stage(int section, const gpu::Buffer& dst, VkDeviceSize dst_offset,
                                    std::span<const std::byte> bytes) {
  const std::size_t offset = (queued_.size() + 15) & ~std::size_t(15);
  queued_.resize(offset + bytes.size());
  std::memcpy(queued_.data() + offset, bytes.data(), bytes.size());
  copies_.push_back({section, dst.handle(), {offset, dst_offset, bytes.size()}});
}

void VoxelVegetationRenderer::update_group(int section, const voxel::SectionVegetation& v) {
  Aabb trees;
  for (const auto& t : v.trees) {
    const float h = float(t.type_height >> 16) / 16.0f;
    trees.expand(glm::vec3(t.px - 0.5f * h, t.py, t.pz - 0.5f * h));
    trees.expand(glm::vec3(t.px + 0.5f * h + 1.0f, t.py + h, t.pz + 0.5f * h + 1.0f));
  }
  section_tree_bounds_[std::size_t(section)] = trees;
  if (v.grass.empty() && v.trees.empty()) {
    groups_.set_page(std::uint32_t(section), Aabb{}, 0xffffffffu);  // no vegetation here
    return;
  }
  Aabb bounds;
  for (const auto& g : v.grass) {
    bounds.expand(glm::vec3(g.px, g.py, g.pz));
    bounds.expand(glm::vec3(g.px + 1.0f, g.py + 1.0f, g.pz + 1.0f));
  }
  if (!v.trees.empty()) bounds.expand(trees);
  groups_.set_page(std::uint32_t(section), bounds, 0);  // one "arena": the vegetation passes
}

void VoxelVegetationRenderer::set_section(int section, const voxel::SectionVegetation& v) {
  const auto s = std::size_t(section);
  if (s >= section_grass_.size())
    throw Error("section index out of range", "VoxelVegetationRenderer::set_section");
  // A replaced section's copies still waiting for the staging ring's budget are dropped: they would land
  // in slots freed below (after their fill).
  std::erase_if(copies_, [&](const Copy& c) { return c.section == section; });
  // Free the old ranges: their slots become empty records on the GPU.
  for (auto [ranges, sections, buffer, stride] :
       {std::tuple{&grass_ranges_, &section_grass_, &grass_, sizeof(voxel::GrassInstance)},
        std::tuple{&tree_ranges_, &section_trees_, &trees_, sizeof(voxel::TreeInstance)}}) {
    Range& r = (*sections)[s];
    if (r.size == 0) continue;
    fills_.push_back({buffer->handle(), VkDeviceSize(r.offset) * stride, VkDeviceSize(r.size) * stride});
    ranges->free(r);
    r = Range{};
  }
  section_grass_[s] = place(section, grass_ranges_, grass_, std::as_bytes(std::span(v.grass)),
                            sizeof(voxel::GrassInstance), "VoxelVegetationOptions::grass_capacity");
  section_trees_[s] = place(section, tree_ranges_, trees_, std::as_bytes(std::span(v.trees)),
                            sizeof(voxel::TreeInstance), "VoxelVegetationOptions::tree_capacity");
  instances_ -= section_instances_[s];
  section_instances_[s] = std::uint32_t(v.grass.size() + v.trees.size());
  instances_ += section_instances_[s];
  update_group(section, v);
}

Range VoxelVegetationRenderer::place(int section, RangeAllocator& ranges, const gpu::Buffer& dst,
                                     std::span<const std::byte> bytes, std::size_t stride,
                                     const char* option) {
  if (bytes.empty()) return Range{};
  const auto r = ranges.allocate(std::uint32_t(bytes.size() / stride));
  if (!r) throw Error("voxel vegetation capacity exceeded", option);
  stage(section, dst, VkDeviceSize(r->offset) * stride, bytes);
  return *r;
}

void VoxelVegetationRenderer::upload(VkCommandBuffer cmd) {
  stats_ = {};
  shadow_run_count_ = 0;
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE);
  if (!initialized_) {  // every slot starts empty
    vkCmdFillBuffer(cmd, grass_.handle(), 0, grass_.size(), kEmpty);
    vkCmdFillBuffer(cmd, trees_.handle(), 0, trees_.size(), kEmpty);
    initialized_ = true;
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  }
  for (const Fill& f : fills_) {
    vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, kEmpty);
    stats_.uploaded_bytes += f.size;
  }
  if (!fills_.empty() && !copies_.empty()) {
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  }
  // Section instances through the staging ring within its frame budget; what does not fit waits for
  // the next frame (those slots read as empty until then).
  gpu::StagingRing& ring = ctx_.staging_ring();
  std::size_t done = 0;
  for (; done < copies_.size(); ++done) {
    Copy c = copies_[done];
    const std::optional<gpu::StagingRing::Span> span = ring.allocate_budgeted(c.region.size, 16);
    if (!span) break;
    std::memcpy(span->data, queued_.data() + c.region.srcOffset, c.region.size);
    c.region.srcOffset = span->offset;
    vkCmdCopyBuffer(cmd, span->buffer, c.dst, 1, &c.region);
    stats_.uploaded_bytes += c.region.size;
  }
  ring.flush();
  copies_.erase(copies_.begin(), copies_.begin() + std::ptrdiff_t(done));
  stats_.pending_copies = std::uint32_t(copies_.size());
  if (copies_.empty()) {
    // A whole world's worth gives its memory back; an edit's few sections keep the capacity.
    if (queued_.capacity() > (1u << 20))
      std::vector<std::byte>().swap(queued_);
    else
      queued_.clear();
  }
  fills_.clear();
  // The instances are read by culling (compute), the draws and the shadow draws (vertex); the draw
  // arguments are rewritten by cull() (transfer).
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

void VoxelVegetationRenderer::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                                   const DepthPyramid* pyramid) {
  const std::uint32_t set = phase == FramePhase::kLate ? 1u : 0u;
  late_culled_ = phase == FramePhase::kLate;
  if (phase == FramePhase::kLate) {
    if (stats_.skipped) return;
  } else {
    stats_.group_tests = groups_.visible_arenas(view.frustum, view.slice_height, 1, group_visible_);
    stats_.skipped = !group_visible_[0];
    if (stats_.skipped) return;
  }
  grass_two_phase_.record_begin(cmd, phase, view.view_proj, pyramid);
  tree_two_phase_.record_begin(cmd, phase, view.view_proj, pyramid);
  // Earlier draws (and the shadow pass) finish reading the lists, draws and sway before they are
  // rewritten.
  gpu::before_output_reset(cmd);
  const std::array<shader::DrawCommand, 2> grass_init{{{12, 0, 0, 0}, {6, 0, 0, config_.grass_capacity}}};
  const shader::DrawCommand tree_init{template_vertices_, 0, 0, 0};
  vkCmdUpdateBuffer(cmd, grass_draws_[set].handle(), 0, sizeof(grass_init), grass_init.data());
  vkCmdUpdateBuffer(cmd, tree_draws_[set].handle(), 0, sizeof(tree_init), &tree_init);
  if (phase != FramePhase::kLate) overflow_.record_reset(cmd);
  gpu::after_output_reset(cmd);

  const std::uint32_t phase_bits = static_cast<std::uint32_t>(phase) << 30;
  shader::VoxelVegetationCullPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i) push.planes[i] = view.frustum.planes[std::size_t(i)].as_vec4();
  push.camera = glm::vec4(view.eye, config_.lod_distance);
  push.slice_height = view.slice_height;
  push.max_distance = config_.max_distance;
  push.time = view.time;
  push.capacity_phase = config_.grass_capacity | phase_bits;
  grass_two_phase_.bind(cmd, grass_cull_, grass_cull_hiz_,
                        {gpu::storage_buffer(grass_), gpu::storage_buffer(grass_draws_[set]),
                         gpu::storage_buffer(grass_visible_[set]), gpu::storage_buffer(overflow_.buffer())},
                        phase, pyramid, &push, sizeof(push));
  // Over the allocated slots only: the capacity is sized for edits, the world uses a fraction of it.
  vkCmdDispatch(cmd, (grass_ranges_.end() + 63) / 64, 1, 1);
  push.capacity_phase = config_.tree_capacity | phase_bits;
  tree_two_phase_.bind(cmd, tree_cull_, tree_cull_hiz_,
                       {gpu::storage_buffer(trees_), gpu::storage_buffer(tree_draws_[set]),
                        gpu::storage_buffer(tree_visible_[set]), gpu::storage_buffer(sway_),
                        gpu::storage_buffer(overflow_.buffer())},
                       phase, pyramid, &push, sizeof(push));
  vkCmdDispatch(cmd, (tree_ranges_.end() + 63) / 64, 1, 1);
  stats_.dispatches += 2;
  stats_.pipeline_binds += 2;
  gpu::after_cull_dispatch(cmd);
  overflow_.record_readback(cmd);
  grass_two_phase_.record_end(cmd, phase);
  tree_two_phase_.record_end(cmd, phase);
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
  shader::VoxelVegetationDrawPush push{
      view.view_proj, glm::vec4(view.eye, 0.0f), glm::vec4(view.to_light, 0.0f), view.slice_height, 0, 0, 0};
  const std::array<gpu::Binding, 2> sb = shadow_receiver_.bindings(shadow);
  const std::array grass_bindings{gpu::storage_buffer(grass_), gpu::storage_buffer(grass_draws_[set]),
                                  gpu::storage_buffer(grass_visible_[set]), sb[0], sb[1]};
  gpu::bind(ctx_, cmd, grass_draw_, grass_bindings, &push, sizeof(push));
  vkCmdDrawIndirect(cmd, grass_draws_[set].handle(), 0, 1, sizeof(shader::DrawCommand));
  push.lod = 1;
  vkCmdPushConstants(cmd, grass_draw_.layout(), grass_draw_.stages(), 0, sizeof(push), &push);
  vkCmdDrawIndirect(cmd, grass_draws_[set].handle(), sizeof(shader::DrawCommand), 1,
                    sizeof(shader::DrawCommand));
  push.lod = 0;
  const std::array tree_bindings{gpu::storage_buffer(trees_),
                                 gpu::storage_buffer(tree_draws_[set]),
                                 gpu::storage_buffer(tree_visible_[set]),
                                 gpu::storage_buffer(sway_),
                                 gpu::storage_buffer(template_),
                                 sb[0],
                                 sb[1]};
  gpu::bind(ctx_, cmd, tree_draw_, tree_bindings, &push, sizeof(push));
  vkCmdDrawIndirect(cmd, tree_draws_[set].handle(), 0, 1, sizeof(shader::DrawCommand));
  stats_.draws += 3;
  stats_.pipeline_binds += 2;
}

void VoxelVegetationRenderer::cull_shadow(VkCommandBuffer, const FrameView& shadow_view) {
  // Sections whose trees can reach into the shadow view, as slot ranges sorted by offset.
  shadow_runs_.clear();
  shadow_run_count_ = 0;
  const glm::vec3 camera = shadow_view.eye;
  for (std::size_t s = 0; s < section_trees_.size(); ++s) {
    const Range& r = section_trees_[s];
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
}

std::uint32_t VoxelVegetationRenderer::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  const std::size_t runs = shadow_run_count_;
  if (runs == 0) return 0;
  const shader::VoxelVegetationDrawPush push{shadow_view.view_proj,
                                             glm::vec4(shadow_view.eye, config_.max_distance),
                                             glm::vec4(0.0f),
                                             shadow_view.slice_height,
                                             0,
                                             0,
                                             0};
  const std::array bindings{gpu::storage_buffer(trees_), gpu::storage_buffer(sway_),
                            gpu::storage_buffer(template_)};
  gpu::bind(ctx_, cmd, tree_shadow_, bindings, &push, sizeof(push));
  for (std::size_t i = 0; i < runs; ++i) {
    vkCmdDraw(cmd, template_vertices_, shadow_runs_[i].size, 0, shadow_runs_[i].offset);
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
                                            far ? VkDeviceSize(config_.grass_capacity) * 4 : 0);
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
  c.candidates = instances_;
  if (stats_.skipped) return c;
  const shader::CullCounters counters = cull_counters();
  c.frustum_passed = counters.frustum_passed;
  c.occluded = counters.occluded;
  const VoxelVegetationCounts counts = read_counts();
  c.drawn = std::uint64_t(counts.grass_near) + counts.grass_far + counts.trees;
  return c;
}

std::uint64_t VoxelVegetationRenderer::gpu_bytes() const {
  return grass_.size() + trees_.size() + sway_.size() + template_.size() +
         2 * (grass_visible_[0].size() + tree_visible_[0].size() + grass_draws_[0].size() +
              tree_draws_[0].size()) +
         grass_two_phase_.gpu_bytes() + tree_two_phase_.gpu_bytes();
}

}  // namespace myriad::render
