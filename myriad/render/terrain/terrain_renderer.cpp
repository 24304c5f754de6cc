#include "myriad/render/terrain/terrain_renderer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "myriad/gpu/sync/sync.hpp"
#include "myriad/voxel/tiles/builtin_tiles.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

// terrain.frag's tile texture, after the vertex stage's storage buffers.
constexpr std::array<VkDescriptorType, 1> kTileTexture{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};

constexpr std::uint32_t kTerrainCategory = 0;
constexpr std::uint32_t kMaxArenas = 128;  // control buffers only; geometry arenas never grow
constexpr std::uint32_t kMaxGroups = kMaxArenas * kTerrainDrawBuckets;
constexpr std::uint32_t kMaxRegions = 32;
constexpr std::uint32_t kChunkSections = 4;  // CoarseChunks' chunk edge
constexpr std::uint32_t kStride = sizeof(voxel::TerrainVertex);
static_assert(sizeof(voxel::TerrainVertex) == sizeof(voxel::AtlasRecord),
              "atlas records share the vertex arena and its stride");

// The shape terrain.frag reads: every tile id a layer, square power-of-two layers, one level or the full
// chain, each level's bytes there.
void check_tile_array(const TextureArray& a) {
  const char* where = "TerrainRenderer tiles";
  if (a.layers != voxel::kTileCount)
    throw Error("the tile array has " + std::to_string(a.layers) + " layers", where,
                "give one layer per tile id: " + std::to_string(voxel::kTileCount));
  if (a.size == 0 || (a.size & (a.size - 1)) != 0)
    throw Error("the tile size " + std::to_string(a.size) + " is not a power of two", where);
  const std::size_t full = std::size_t(std::bit_width(a.size));
  if (a.levels.size() != 1 && a.levels.size() != full)
    throw Error("the tile array has " + std::to_string(a.levels.size()) + " mip levels", where,
                "give level 0 alone or all " + std::to_string(full));
  for (std::size_t l = 0; l < a.levels.size(); ++l) {
    const std::size_t side = a.size >> l;
    if (a.levels[l].size() != side * side * 4 * a.layers)
      throw Error("mip level " + std::to_string(l) + " has " + std::to_string(a.levels[l].size()) + " bytes",
                  where, "each level holds every layer's RGBA8 texels");
  }
}

}  // namespace

TerrainRenderer::TerrainRenderer(gpu::Context& ctx, glm::ivec3 sections, VkFormat color_format,
                                 VkFormat depth_format, const PageArenaOptions& config,
                                 const TextureArray* tiles)
    : ctx_(ctx),
      color_format_(color_format),
      depth_format_(depth_format),
      sections_(sections),
      slots_(std::uint32_t(sections.x * sections.y * sections.z)),
      arenas_(slots_, config),
      buffers_(ctx, kStride, 64ull << 20),
      chunks_(std::uint32_t(sections.x), std::uint32_t(sections.y), std::uint32_t(sections.z),
              kChunkSections),
      culler_(ctx),
      page_is_dirty_(slots_, 0),
      hidden_(slots_, 0),
      pages_(slots_),
      terrain_pages_(slots_),
      section_atlas_(slots_, 0),
      overflow_(ctx),
      shadow_overflow_(ctx),
      two_phase_(ctx, slots_),
      shadow_two_phase_(ctx, slots_),
      max_arenas_(kMaxArenas),
      shadow_receiver_(ctx) {
  for (auto& p : pages_) p.group = kNoArena;
  // Regions: the smallest square of coarse chunks that keeps their number to kMaxRegions.
  const std::uint32_t chunks_x = (std::uint32_t(sections.x) + kChunkSections - 1) / kChunkSections;
  const std::uint32_t chunks_z = (std::uint32_t(sections.z) + kChunkSections - 1) / kChunkSections;
  for (;; ++region_chunks_) {
    regions_x_ = (chunks_x + region_chunks_ - 1) / region_chunks_;
    regions_z_ = (chunks_z + region_chunks_ - 1) / region_chunks_;
    if (regions_x_ * regions_z_ <= kMaxRegions) break;
  }
  page_buf_ = gpu::make_storage_buffer(ctx, slots_ * sizeof(shader::PageGpu));
  terrain_page_buf_ = gpu::make_storage_buffer(ctx, slots_ * sizeof(shader::TerrainPageGpu));
  for (int set = 0; set < 2; ++set) {
    visible_buf_[set] = gpu::make_storage_buffer(ctx, slots_ * sizeof(std::uint32_t));
    draw_buf_[set] = gpu::make_storage_buffer(ctx, kMaxGroups * sizeof(shader::DrawCommand),
                                              VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  }
  counts_ = gpu::HostReadback(ctx, 2 * (draw_buf_[0].size() + visible_buf_[0].size()));
  group_cull_buf_ = gpu::make_storage_buffer(ctx, kMaxGroups * sizeof(shader::DrawGroupGpu));
  address_buf_ = gpu::make_storage_buffer(ctx, kMaxArenas * sizeof(shader::ArenaAddressGpu));
  shadow_visible_buf_ = gpu::make_storage_buffer(ctx, slots_ * sizeof(std::uint32_t));
  shadow_draw_buf_ = gpu::make_storage_buffer(ctx, kMaxGroups * sizeof(shader::DrawCommand),
                                              VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);

  // The tiles' colours are used as stored (UNORM, as the built-in ones always were). terrain.frag reads
  // level 0 texel by texel and samples the mip chain for minified surfaces: nearest texels, the two levels
  // around the footprint blended.
  if (tiles) {
    check_tile_array(*tiles);
    tiles_ = gpu::make_texture_array_image(ctx, *tiles, VK_FORMAT_R8G8B8A8_UNORM);
  } else {
    tiles_ = gpu::make_texture_array_image(ctx, voxel::builtin_tiles(), VK_FORMAT_R8G8B8A8_UNORM);
  }
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = sampler.minFilter = VK_FILTER_NEAREST;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sampler.maxLod = VK_LOD_CLAMP_NONE;
  tile_sampler_ = gpu::Sampler(ctx, sampler);

  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::terrain_vert();
  b.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
               VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
              sizeof(shader::TerrainPush)};
  shadow_pipeline_ = build_shadow_caster(ctx, b);
  b.dynamic_cull_mode = true;  // back faces only while a slice cuts the world: they draw the cut (V14)
  pipeline_ = build_shadow_receiver(ctx, b, spirv::terrain_frag(), kTileTexture, color_format, depth_format);
}

void TerrainRenderer::set_floor(glm::vec4 rect_xz, std::uint16_t tile) {
  floor_ = rect_xz;
  floor_tile_ = tile;
  if (floor_pipeline_.built()) return;
  gpu::GraphicsPipelineBuilder b;  // terrain_floor.vert in the main pipeline's layout, with terrain.frag
  b.vertex = spirv::terrain_floor_vert();
  b.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
               VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
              sizeof(shader::TerrainPush)};
  b.cull_mode = VK_CULL_MODE_NONE;  // the floor is seen from above as a back face
  floor_pipeline_ =
      build_shadow_receiver(ctx_, b, spirv::terrain_frag(), kTileTexture, color_format_, depth_format_);
}

std::uint32_t TerrainRenderer::region_of_section(std::uint32_t section) const {
  if (section >= slots_) throw Error("section index out of range", "TerrainRenderer::region_of_section");
  const auto sx = std::uint32_t(sections_.x), sz = std::uint32_t(sections_.z);
  const std::uint32_t x = section % sx, z = (section / sx) % sz;
  const std::uint32_t edge = kChunkSections * region_chunks_;
  return (z / edge) * regions_x_ + x / edge;
}

Aabb TerrainRenderer::region_bounds(std::uint32_t region) const {
  if (region >= region_count()) throw Error("region index out of range", "TerrainRenderer::region_bounds");
  const std::uint32_t edge = kChunkSections * region_chunks_;
  const glm::uvec3 lo((region % regions_x_) * edge, 0u, (region / regions_x_) * edge);
  const glm::uvec3 hi(std::min(lo.x + edge, std::uint32_t(sections_.x)), std::uint32_t(sections_.y),
                      std::min(lo.z + edge, std::uint32_t(sections_.z)));
  const auto cell = float(voxel::kSectionSize);
  return Aabb{glm::vec3(lo) * cell, glm::vec3(hi) * cell};
}

Aabb TerrainRenderer::page_bounds(std::uint32_t section) const {
  const shader::PageGpu& p = pages_.at(section);
  return p.group == kNoArena ? Aabb{} : Aabb{p.aabb_min, p.aabb_max};
}

void TerrainRenderer::keep_spare_arena(std::shared_ptr<WorkerPool> workers) {
  const PageArenaOptions& c = arenas_.config();
  if (c.fit_to_content)
    throw Error("arenas fitted to their content differ in size: no spare fits them",
                "TerrainRenderer::keep_spare_arena", "use fixed arena capacities (fit_to_content off)");
  buffers_.keep_spare(std::move(workers), VkDeviceSize(c.vertex_capacity) * kStride,
                      VkDeviceSize(c.index_capacity) * sizeof(std::uint32_t));
}

void TerrainRenderer::set_section(int section, glm::vec3 origin, const voxel::SectionMesh& mesh) {
  const auto s = std::uint32_t(section);
  if (s >= slots_) throw Error("section index out of range", "TerrainRenderer::set_section");
  const auto vertex_count = std::uint32_t(mesh.vertices.size() + mesh.atlas.size());
  const auto index_count = std::uint32_t(mesh.indices.size());
  if (index_count > draw_bucket_size(kTerrainDrawBuckets - 1))
    throw Error("section " + std::to_string(s) + " has " + std::to_string(index_count) +
                    " indices, more than the largest draw bucket",
                "TerrainRenderer::set_section");
  const PlaceOutcome outcome =
      arenas_.place(s, kTerrainCategory, index_count ? vertex_count : 0, index_count, region_of_section(s));
  ++page_version_;
  arenas_dirty_ = true;  // page counts per arena (visible bases) may have changed
  mark_page_dirty(s);
  section_atlas_[s] = std::uint32_t(mesh.atlas.size());
  if (outcome == PlaceOutcome::kRemoved) {
    pages_[s] = shader::PageGpu{};
    pages_[s].group = kNoArena;
    chunks_.set_page(s, Aabb{}, kNoArena);
    return;
  }
  const PagePlacement& pl = arenas_.placement(s);
  // origin + p * scale rounds monotonically in p, so the box of the mesher's box is the vertices' box.
  Aabb bounds;
  if (mesh.has_bounds) {
    bounds.expand(origin +
                  glm::vec3(mesh.bounds_min[0], mesh.bounds_min[1], mesh.bounds_min[2]) * cell_scale_);
    bounds.expand(origin +
                  glm::vec3(mesh.bounds_max[0], mesh.bounds_max[1], mesh.bounds_max[2]) * cell_scale_);
  } else {
    for (const voxel::TerrainVertex& v : mesh.vertices)
      bounds.expand(origin + glm::vec3(v.px, v.py, v.pz) * cell_scale_);
  }
  shader::PageGpu& p = pages_[s];
  p.aabb_min = bounds.min;
  p.aabb_max = bounds.max;
  p.group = pl.arena * kTerrainDrawBuckets + pl.bucket;
  p.index_count = index_count;
  p.first_index = pl.indices.offset;
  p.first_vertex = pl.vertices.offset;
  terrain_pages_[s] = {origin, std::uint32_t(mesh.vertices.size())};
  chunks_.set_page(s, bounds, pl.arena);

  // Vertices and atlas records go into one range, copied once into the upload queue.
  static_assert(sizeof(mesh.atlas[0]) == kStride, "atlas records share the vertex stride");
  buffers_.write(arenas_, s, {std::as_bytes(std::span(mesh.vertices)), std::as_bytes(std::span(mesh.atlas))},
                 mesh.indices);
}

void TerrainRenderer::mark_page_dirty(std::uint32_t section) {
  if (!page_is_dirty_[section]) {
    page_is_dirty_[section] = 1;
    dirty_pages_.push_back(section);
  }
}

void TerrainRenderer::set_cell_scale(float scale) {
  if (!(scale > 0.0f)) throw Error("cell scale must be positive", "TerrainRenderer::set_cell_scale");
  cell_scale_ = scale;
}

void TerrainRenderer::set_section_hidden(int section, bool hidden) {
  const auto s = std::uint32_t(section);
  if (s >= slots_) throw Error("section index out of range", "TerrainRenderer::set_section_hidden");
  if ((hidden_[s] != 0) == hidden) return;
  hidden_[s] = hidden ? 1 : 0;
  ++page_version_;
  mark_page_dirty(s);
}

std::uint64_t TerrainRenderer::update_buffer(VkCommandBuffer cmd, const gpu::Buffer& dst,
                                             std::span<const std::byte> bytes) {
  // vkCmdUpdateBuffer takes at most 65536 bytes per call.
  for (std::size_t offset = 0; offset < bytes.size(); offset += 65536) {
    const std::size_t n = std::min<std::size_t>(65536, bytes.size() - offset);
    vkCmdUpdateBuffer(cmd, dst.handle(), offset, n, bytes.data() + offset);
  }
  return bytes.size();
}

void TerrainRenderer::upload_tables(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE);
  if (!page_table_cleared_) {
    // Device memory starts with whatever it held: every slot a caller never set (a streamed window's,
    // before its first unit arrives) must read as empty (group 0xffffffff), never as a page of garbage.
    vkCmdFillBuffer(cmd, page_buf_.handle(), 0, VkDeviceSize(slots_) * sizeof(shader::PageGpu), 0xffffffffu);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    page_table_cleared_ = true;
  }
  // Only the entries of changed pages (an edit uploads its pages' rows, not the whole table), one update
  // per run of consecutive slots: a streamed row of units lies in consecutive slots of each layer, and a
  // row leaving or arriving changes a hundred pages in one frame.
  constexpr std::size_t kRun = 65536 / std::max(sizeof(shader::PageGpu), sizeof(shader::TerrainPageGpu));
  std::sort(dirty_pages_.begin(), dirty_pages_.end());
  for (std::size_t i = 0; i < dirty_pages_.size();) {
    const std::uint32_t first = dirty_pages_[i];
    std::size_t n = 1;
    while (i + n < dirty_pages_.size() && n < kRun && dirty_pages_[i + n] == first + n) ++n;
    page_run_.assign(pages_.begin() + first, pages_.begin() + std::ptrdiff_t(first + n));
    for (std::size_t k = 0; k < n; ++k) {
      if (hidden_[first + k]) page_run_[k].group = kNoArena;
      page_is_dirty_[first + k] = 0;
    }
    vkCmdUpdateBuffer(cmd, page_buf_.handle(), VkDeviceSize(first) * sizeof(shader::PageGpu),
                      n * sizeof(shader::PageGpu), page_run_.data());
    vkCmdUpdateBuffer(cmd, terrain_page_buf_.handle(), VkDeviceSize(first) * sizeof(shader::TerrainPageGpu),
                      n * sizeof(shader::TerrainPageGpu), &terrain_pages_[first]);
    stats_.uploaded_bytes += n * (sizeof(shader::PageGpu) + sizeof(shader::TerrainPageGpu));
    i += n;
  }
  dirty_pages_.clear();
  if (arenas_dirty_) {
    const auto& arenas = arenas_.arenas();
    if (arenas.size() > max_arenas_)
      throw Error("more than " + std::to_string(max_arenas_) + " terrain arenas", "TerrainRenderer");
    // Per arena its draw groups, one per bucket; the visible list holds the groups' pages in order.
    group_cull_.resize(arenas.size() * kTerrainDrawBuckets);
    arena_draws_.assign(arenas.size(), {});
    addresses_.resize(arenas.size());
    std::uint32_t base = 0;
    for (std::uint32_t a = 0; a < arenas.size(); ++a) {
      std::uint32_t first = kTerrainDrawBuckets, last = 0;
      for (std::uint32_t b = 0; b < kTerrainDrawBuckets; ++b) {
        const std::uint32_t pages = b < arenas[a].bucket_pages.size() ? arenas[a].bucket_pages[b] : 0;
        group_cull_[a * kTerrainDrawBuckets + b] = {base, draw_bucket_size(b)};
        base += pages;
        if (pages > 0) {
          first = std::min(first, b);
          last = b;
        }
      }
      if (first <= last) arena_draws_[a] = {first, last - first + 1};
      const VkDeviceAddress v = buffers_.vertex_buffer(a).address(), i = buffers_.index_buffer(a).address();
      addresses_[a] = {std::uint32_t(v), std::uint32_t(v >> 32), std::uint32_t(i), std::uint32_t(i >> 32)};
    }
    initial_page_draws(group_cull_, initial_draws_);
    if (!group_cull_.empty()) {
      stats_.uploaded_bytes += update_buffer(cmd, group_cull_buf_, std::as_bytes(std::span(group_cull_)));
      stats_.uploaded_bytes += update_buffer(cmd, address_buf_, std::as_bytes(std::span(addresses_)));
    }
    arenas_dirty_ = false;
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

void TerrainRenderer::upload(VkCommandBuffer cmd) {
  stats_ = {};
  shadow_stats_ = {};
  // Open arenas get their capacity now, before their buffers exist (fit_to_content).
  if (arenas_.seal() > 0) arenas_dirty_ = true;
  stats_.geometry_bytes = buffers_.record_uploads(cmd, arenas_);
  stats_.uploaded_bytes = stats_.geometry_bytes;
  // Geometry the staging ring could not take this frame waits, and so do the tables pointing at it.
  if (buffers_.pending_bytes() > 0) return;
  if (!dirty_pages_.empty() || arenas_dirty_) {
    upload_tables(cmd);
    // The cull must see the tables that are now on the GPU: one that ran while they waited for their
    // geometry read the old ones, and its lists would be drawn against the new ranges.
    ++page_version_;
  }
}

void TerrainRenderer::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                           const DepthPyramid* pyramid) {
  if (group_cull_.empty()) return;
  const std::uint32_t set = phase == FramePhase::kLate ? 1u : 0u;
  if (phase == FramePhase::kSingle) {
    const CullInputs inputs{view.view_proj, view.slice_height, page_version_};
    if (!tracker_.needs_cull(inputs)) return;
    tracker_.culled(inputs);
  } else {
    tracker_.invalidate();  // the two-phase passes overwrite the single pass's outputs
  }
  culler_.record(cmd, view, page_buf_, slots_, group_cull_buf_, initial_draws_,
                 {draw_buf_[set], visible_buf_[set], overflow_, two_phase_}, phase, pyramid);
  stats_.culled = true;
  ++stats_.pipeline_binds;
  if (phase == FramePhase::kEarly) return;
  // The frame's draws and lists for read_draw_counts(), copied in the frame (no read-back submission).
  const VkDeviceSize draw_bytes = group_cull_.size() * sizeof(shader::DrawCommand);
  for (std::uint32_t s = 0; s <= set; ++s) {
    const VkDeviceSize at = counts_offset(s);
    counts_.record_copy(cmd, draw_buf_[s], 0, draw_bytes, at);
    counts_.record_copy(cmd, visible_buf_[s], 0, visible_buf_[s].size(), at + draw_buf_[0].size());
  }
  counts_.record_host_barrier(cmd);
}

void TerrainRenderer::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                           const ShadowMap* shadow) {
  const std::uint32_t set = phase == FramePhase::kLate ? 1u : 0u;
  const auto arena_count = std::uint32_t(arena_draws_.size());
  late_drawn_ = !first_phase(phase);
  if (first_phase(phase)) {  // the chunk test and the page count hold for both phases of the frame
    stats_.chunk_tests = chunks_.visible_arenas(view.frustum, view.slice_height, arena_count, arena_visible_);
    if (!coarse_test_) arena_visible_.assign(arena_count, 1);
    stats_.arenas = arena_count;
    stats_.pages = 0;
    for (const PageArena& a : arenas_.arenas()) stats_.pages += a.page_count;
  }
  shader::TerrainPush push{view.view_proj, glm::vec4(view.to_light, 0.0f), view.slice_height, 0, debug_mode_,
                           cell_scale_};
  const std::array<gpu::Binding, 2> sb = shadow_receiver_.bindings(shadow);
  const std::array bindings{
      gpu::storage_buffer(page_buf_),
      gpu::storage_buffer(terrain_page_buf_),
      gpu::storage_buffer(visible_buf_[set]),
      gpu::storage_buffer(address_buf_),
      gpu::sampled_image(tile_sampler_.handle(), tiles_.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
      sb[0],
      sb[1]};
  // A slice opens the solid ground: the faces seen from inside through the cut are drawn as the cut's
  // solid face (terrain.frag); without a slice nothing inside can be seen and back faces are culled.
  const bool sliced = view.slice_height < kNoSlice;
  const std::uint32_t drawn = draw_arenas(cmd, pipeline_.of(view), bindings, push, arena_visible_,
                                          draw_buf_[set], sliced ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT);
  stats_.arenas_drawn += drawn;
  if (drawn > 0) ++stats_.pipeline_binds;
  if (sliced && floor_pipeline_.built() && first_phase(phase)) {  // once a frame: with the first phase
    push.floor_rect = floor_;
    push.arena = floor_tile_;  // terrain_floor.vert: the floor's tile
    gpu::bind(ctx_, cmd, floor_pipeline_.of(view), bindings, &push, sizeof(push));
    vkCmdDraw(cmd, 6, 1, 0, 0);
    ++stats_.pipeline_binds;
  }
}

void TerrainRenderer::cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  const CullInputs inputs{shadow_view.view_proj, shadow_view.slice_height, page_version_};
  if (shadow_tracker_.needs_cull(inputs) && !group_cull_.empty()) {
    culler_.record(cmd, shadow_view, page_buf_, slots_, group_cull_buf_, initial_draws_,
                   {shadow_draw_buf_, shadow_visible_buf_, shadow_overflow_, shadow_two_phase_});
    shadow_tracker_.culled(inputs);
    shadow_stats_.culled = true;
  }
}

std::uint32_t TerrainRenderer::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  const auto arena_count = std::uint32_t(arena_draws_.size());
  shadow_stats_.chunk_tests = chunks_.visible_arenas(shadow_view.frustum, shadow_view.slice_height,
                                                     arena_count, shadow_arena_visible_);
  if (!coarse_test_) shadow_arena_visible_.assign(arena_count, 1);
  const shader::TerrainPush push{shadow_view.view_proj, glm::vec4(0.0f), shadow_view.slice_height, 0, 0,
                                 cell_scale_,           glm::vec4(0.0f)};
  const std::array bindings{gpu::storage_buffer(page_buf_), gpu::storage_buffer(terrain_page_buf_),
                            gpu::storage_buffer(shadow_visible_buf_), gpu::storage_buffer(address_buf_)};
  const std::uint32_t drawn =
      draw_arenas(cmd, shadow_pipeline_, bindings, push, shadow_arena_visible_, shadow_draw_buf_);
  shadow_stats_.arenas_drawn += drawn;
  return drawn;
}

std::uint32_t TerrainRenderer::draw_arenas(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                           std::span<const gpu::Binding> bindings, shader::TerrainPush push,
                                           const std::vector<std::uint8_t>& visible, const gpu::Buffer& draws,
                                           std::optional<VkCullModeFlags> cull) {
  std::uint32_t drawn = 0;
  for (std::uint32_t a = 0; a < arena_draws_.size(); ++a) {
    const DrawRange range = arena_draws_[a];
    if (a >= visible.size() || !visible[a] || range.count == 0) continue;
    push.arena = a;
    if (drawn == 0) {
      gpu::bind(ctx_, cmd, pipeline, bindings, &push, sizeof(push));
      if (cull) vkCmdSetCullMode(cmd, *cull);
    } else
      vkCmdPushConstants(cmd, pipeline.layout(), pipeline.stages(), 0, sizeof(push), &push);
    // The arena's groups of the buckets its pages use, in one call (multiDrawIndirect).
    vkCmdDrawIndirect(cmd, draws.handle(),
                      VkDeviceSize(a * kTerrainDrawBuckets + range.first) * sizeof(shader::DrawCommand),
                      range.count, sizeof(shader::DrawCommand));
    ++drawn;
  }
  return drawn;
}

TerrainRenderer::DrawCounts TerrainRenderer::read_draw_counts() {
  DrawCounts c;
  if (group_cull_.empty()) return c;
  for (std::uint32_t set = 0; set < (late_drawn_ ? 2u : 1u); ++set) {
    const VkDeviceSize at = counts_offset(set);
    const auto draws = counts_.read<shader::DrawCommand>(at, group_cull_.size());
    const auto visible = counts_.read<std::uint32_t>(at + draw_buf_[0].size(), slots_);
    for (std::size_t g = 0; g < draws.size(); ++g) {
      const std::size_t a = g / kTerrainDrawBuckets, b = g % kTerrainDrawBuckets;
      if (a >= arena_visible_.size() || !arena_visible_[a]) continue;  // not drawn this frame
      const DrawRange range = arena_draws_[a];
      if (b < range.first || b >= range.first + range.count) continue;  // outside the recorded call
      c.pages += draws[g].instance_count;
      c.vertices += std::uint64_t(draws[g].vertex_count) * draws[g].instance_count;
      for (std::uint32_t i = 0; i < draws[g].instance_count; ++i) {
        const std::uint32_t page = visible.at(draws[g].first_instance + i);
        c.triangles += pages_.at(page).index_count / 3;
      }
    }
  }
  return c;
}

TerrainMemory TerrainRenderer::memory() const {
  TerrainMemory m;
  m.vertex_bytes = buffers_.gpu_vertex_bytes();
  m.index_bytes = buffers_.gpu_index_bytes();
  m.page_bytes = page_buf_.size() + terrain_page_buf_.size() +
                 2 * (visible_buf_[0].size() + draw_buf_[0].size()) + group_cull_buf_.size() +
                 address_buf_.size() + shadow_visible_buf_.size() + shadow_draw_buf_.size() +
                 two_phase_.gpu_bytes() + shadow_two_phase_.gpu_bytes();
  m.cpu_bytes = pages_.capacity() * sizeof(shader::PageGpu) +
                terrain_pages_.capacity() * sizeof(shader::TerrainPageGpu) +
                group_cull_.capacity() * sizeof(shader::DrawGroupGpu) +
                arena_draws_.capacity() * sizeof(DrawRange) +
                initial_draws_.capacity() * sizeof(shader::DrawCommand) +
                addresses_.capacity() * sizeof(shader::ArenaAddressGpu) + page_is_dirty_.capacity() +
                hidden_.capacity() + dirty_pages_.capacity() * sizeof(std::uint32_t) +
                section_atlas_.capacity() * sizeof(std::uint32_t) +
                std::uint64_t(arenas_.page_slots()) * sizeof(PagePlacement) +
                arenas_.arenas().size() * sizeof(PageArena);
  for (std::uint32_t s = 0; s < slots_; ++s) {
    const PagePlacement& p = arenas_.placement(s);
    if (!p.placed()) continue;
    m.vertices += p.vertex_count - section_atlas_[s];
    m.atlas_records += section_atlas_[s];
    m.indices += p.index_count;
  }
  return m;
}

SystemFrameStats TerrainRenderer::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  const TerrainMemory tm = memory();
  s.objects = stats_.pages;
  s.draws = stats_.arenas_drawn;
  s.pipeline_binds = stats_.pipeline_binds;
  s.overflow = overflow();
  s.gpu_bytes = tm.vertex_bytes + tm.index_bytes + tm.page_bytes;
  if (!drawn) return s;
  const DrawCounts counts = read_draw_counts();
  s.visible = counts.pages;
  s.vertices = counts.vertices;
  s.triangles = counts.triangles;
  const shader::CullCounters c = cull_counters();
  s.frustum_culled = s.objects - std::min<std::uint64_t>(c.frustum_passed, s.objects);
  s.occlusion_culled = c.occluded;
  return s;
}

}  // namespace myriad::render
