// The voxel terrain on the GPU (V6, V10-V14): sections become page slots in long-lived arenas, one
// set of arenas per region (a square of coarse chunks), so CPU coarse chunks skip whole arenas;
// CullPages culls pages on the GPU; each visible arena is one multi-draw indirect call, one command
// per draw bucket its pages use. Uploads and culling happen only on change; no CPU copy of the
// geometry is kept after upload.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/gpu/memory/host_readback.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/terrain/coarse_chunks.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/two_phase_cull.hpp"
#include "myriad/render/terrain/page_arena_buffers.hpp"
#include "myriad/render/terrain/page_arenas.hpp"
#include "myriad/render/terrain/page_cull.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/shaders/terrain_layout.h"
#include "myriad/voxel/mesh/mesher.hpp"

namespace myriad::render {

struct TerrainFrameStats {
  std::uint32_t pages = 0;  // non-empty sections
  std::uint32_t arenas = 0;
  std::uint32_t arenas_drawn = 0;    // indirect draw calls recorded (coarse-visible arenas)
  std::uint32_t chunk_tests = 0;     // CPU coarse tests
  std::uint32_t pipeline_binds = 0;  // graphics + compute binds recorded this frame
  bool culled = false;               // CullPages dispatched this frame
  std::uint64_t uploaded_bytes = 0;  // geometry + page tables copied this frame
  std::uint64_t geometry_bytes = 0;  // of which vertices, atlas records and indices
};

// The shadow view's own culling (TerrainRenderer::prepare_shadow / draw_shadow).
struct TerrainShadowStats {
  bool culled = false;             // CullPages dispatched for the shadow view this frame
  std::uint32_t arenas_drawn = 0;  // indirect draws recorded into the shadow map
  std::uint32_t chunk_tests = 0;
};

struct TerrainMemory {
  std::uint64_t vertex_bytes = 0;  // arena vertex buffers (vertices + atlas records)
  std::uint64_t index_bytes = 0;
  std::uint64_t page_bytes = 0;                                // page tables, visible list, draws
  std::uint64_t vertices = 0, indices = 0, atlas_records = 0;  // live content
  std::uint64_t cpu_bytes =
      0;  // what the renderer keeps on the CPU: page tables and bookkeeping, no geometry
};

// Arenas sized to their content (V10): each region's pages go to an open arena that the first upload
// seals at what they reach plus an eighth (at least 512 vertices / 768 indices) for edits to grow
// into; a region that outgrows it gets a spill arena of at least a quarter of its capacity. An open
// arena takes at most 1 Mi vertices (28 MiB) and 3 Mi indices before a second one is opened.
inline PageArenaOptions terrain_arena_options() {
  PageArenaOptions c;
  c.vertex_capacity = 1u << 20;
  c.index_capacity = 3u << 20;
  c.fit_to_content = true;
  return c;
}

// Draw groups per arena: one indirect command per draw bucket, buckets 0..23 (up to 196,608 indices;
// a 16^3 section needs at most 73,728).
inline constexpr std::uint32_t kTerrainDrawBuckets = 24;

class TerrainRenderer : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // `tiles`: the block textures (voxel/tiles: kTileCount layers, layer = tile id, square power-of-two
  // layers with 1 level or a full mip chain; a TileSet's texture); null = the built-in tiles. Uploaded
  // here, not kept. Throws myriad::Error when the array is not of that shape.
  TerrainRenderer(gpu::Context& ctx, glm::ivec3 sections, VkFormat color_format, VkFormat depth_format,
                  const PageArenaOptions& config = terrain_arena_options(),
                  const TextureArray* tiles = nullptr);

  // With fixed arena capacities (not fit_to_content): the next arena's buffers are made on `workers`
  // ahead of need (PageArenaBuffers::keep_spare), so a frame that opens an arena does not allocate.
  void keep_spare_arena(std::shared_ptr<WorkerPool> workers);

  // Queues a section's mesh (vertices + atlas records into its vertex range, indices into its index
  // range); an empty mesh removes the page. `origin` = the section's world position.
  void set_section(int section, glm::vec3 origin, const voxel::SectionMesh& mesh);

  // Outside rendering, first in a frame: uploads what changed (geometry, page tables).
  void upload(VkCommandBuffer cmd) override;
  // Two-phase Hi-Z: phase 1 draws the pages drawn last frame, phase 2 those the pyramid newly shows.
  bool occlusion_culled() const override { return true; }
  // Outside rendering, after upload(). kSingle reruns CullPages only when the view, slice or pages
  // changed; kEarly and kLate run every frame (the depth they depend on changes), each into outputs of
  // its own.
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  // Inside dynamic rendering, per phase. With `shadow`, the sun term is darkened where the map says
  // occluded.
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // World units per mesh unit (TerrainPush::cell_scale): 1 for sections of cells, 2^L for far LOD meshes
  // of coarse cells. Set before the first set_section (page bounds are computed with it).
  void set_cell_scale(float scale);
  float cell_scale() const { return cell_scale_; }
  // A hidden page keeps its geometry and placement but is no candidate for culling (its page-table entry
  // goes up without a draw group), so a level of detail can hand a place to another without re-uploading.
  void set_section_hidden(int section, bool hidden);
  bool section_hidden(int section) const { return hidden_.at(std::size_t(section)) != 0; }
  // The world's floor (y = 0) over x0..x1, z0..z1 in render space, drawn with `tile` while a slice cuts the
  // world: the mesher leaves the world's bottom open, and the floor closes it so a cut column solid to the
  // bottom shows its cut face, not what lies under the world (V14). Without it, no floor is drawn.
  void set_floor(glm::vec4 rect_xz, std::uint16_t tile);
  // TerrainPush::debug_mode of the draws (0 = shaded).
  void set_debug_mode(std::uint32_t mode) { debug_mode_ = mode; }
  // Off: every arena with pages is drawn, whatever the coarse chunk test says (for comparisons; the
  // GPU culling is the same either way, so the image is too).
  void set_coarse_test(bool enabled) { coarse_test_ = enabled; }

  // Outside rendering, after upload(): culls the pages for the shadow view (ShadowMap::view()) into
  // outputs of its own, so the camera view's culling and its "nothing changed, nothing culled" frames
  // are untouched. Reruns only when the light view, slice or pages changed.
  void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  // Inside the shadow map's pass: the pages cull_shadow kept, depth only, clipped at the slice.
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  const TerrainShadowStats& shadow_stats() const { return shadow_stats_; }

  const TerrainFrameStats& frame_stats() const { return stats_; }
  SystemFrameStats read_frame_stats(bool drawn) override;
  // Page geometry queued but not yet staged (the staging ring had no room for it this frame).
  std::uint64_t pending_upload_bytes() const { return buffers_.pending_bytes(); }
  // Geometry goes under `share` of the upload queue (PageArenaBuffers::use_upload_share).
  void use_upload_share(gpu::UploadShare share) { buffers_.use_upload_share(share); }
  // After the frame completed: pages the last camera and shadow culls dropped because an arena's
  // visible list was full (0 unless the page tables and the list disagree).
  std::uint32_t overflow() const { return overflow_.read() + shadow_overflow_.read(); }
  // After the frame's submission completed: what the camera's draws drew, from the copies the frame
  // made of its draws and visible lists (no read-back submission).
  struct DrawCounts {
    std::uint64_t pages = 0;      // visible pages in the arenas drawn
    std::uint64_t vertices = 0;   // vertex shader invocations (one per index slot of each page)
    std::uint64_t triangles = 0;  // the visible pages' own triangles (without bucket padding)
  };
  DrawCounts read_draw_counts();
  // After the frame's submission completed: what the camera's last cull (single, or early + late)
  // counted. A single-phase frame that reused the previous cull reports that cull's counts.
  shader::CullCounters cull_counters() const { return two_phase_.read(); }
  TerrainMemory memory() const;
  const PageArenas& arenas() const { return arenas_; }
  // The arenas' GPU buffers (tests read pages back from them).
  const PageArenaBuffers& buffers() const { return buffers_; }

  // Regions: squares of region_chunks() x region_chunks() coarse chunks over the full height, at most
  // 32 of them (the smallest square that keeps to that). Every arena belongs to one region
  // (PageArena::region) and holds only pages of that region's sections.
  std::uint32_t region_count() const { return regions_x_ * regions_z_; }
  std::uint32_t region_chunks() const { return region_chunks_; }
  std::uint32_t region_of_section(std::uint32_t section) const;
  // The region's box: its sections' cells (x, z) over the whole section grid height.
  Aabb region_bounds(std::uint32_t region) const;
  // A page's world bounds (empty Aabb for a section without geometry).
  Aabb page_bounds(std::uint32_t section) const;

 private:
  void upload_tables(VkCommandBuffer cmd);
  void mark_page_dirty(std::uint32_t section);
  // One multi-draw indirect call per arena marked in `visible` (pipeline bound before the first);
  // returns the count.
  std::uint32_t draw_arenas(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                            std::span<const gpu::Binding> bindings, shader::TerrainPush push,
                            const std::vector<std::uint8_t>& visible, const gpu::Buffer& draws,
                            std::optional<VkCullModeFlags> cull = std::nullopt);
  std::uint64_t update_buffer(VkCommandBuffer cmd, const gpu::Buffer& dst, std::span<const std::byte> bytes);

  gpu::Context& ctx_;
  VkFormat color_format_, depth_format_;  // of the targets drawn into (the floor's pipeline is made later)
  glm::ivec3 sections_;
  std::uint32_t slots_;
  PageArenas arenas_;
  PageArenaBuffers buffers_;
  CoarseChunks chunks_;
  PageCuller culler_;
  CullTracker tracker_, shadow_tracker_;
  std::uint64_t page_version_ = 0;
  bool arenas_dirty_ = true;                // arena tables (bases, addresses) need an upload
  bool page_table_cleared_ = false;         // the page table's every slot set empty once
  std::vector<std::uint32_t> dirty_pages_;  // page-table entries to upload
  std::vector<std::uint8_t> page_is_dirty_;
  std::vector<std::uint8_t> hidden_;
  float cell_scale_ = 1.0f;
  glm::vec4 floor_{0.0f};
  std::uint16_t floor_tile_ = 0;
  ShadedPipeline floor_pipeline_;  // made by set_floor: terrain_floor.vert with terrain.frag, no culling

  std::vector<shader::PageGpu> pages_;
  std::vector<shader::TerrainPageGpu> terrain_pages_;
  std::vector<shader::PageGpu> page_run_;  // a run of page-table entries as uploaded (hidden ones empty)
  std::vector<shader::DrawGroupGpu> group_cull_;  // arena a's groups: a * kTerrainDrawBuckets + bucket
  struct DrawRange {
    std::uint32_t first = 0, count = 0;  // the arena's used buckets (count 0: no pages)
  };
  std::vector<DrawRange> arena_draws_;
  std::vector<shader::DrawCommand> initial_draws_;
  std::vector<shader::ArenaAddressGpu> addresses_;  // per arena its buffers' addresses, as uploaded
  std::vector<std::uint8_t> arena_visible_, shadow_arena_visible_;
  std::vector<std::uint32_t> section_atlas_;  // atlas records per section (stats)

  // Culling outputs: [0] the single or early pass, [1] the late pass; then the shadow view's own.
  gpu::Buffer page_buf_, terrain_page_buf_, group_cull_buf_, address_buf_;
  gpu::Buffer visible_buf_[2], draw_buf_[2];
  gpu::HostReadback counts_;  // per set: the draws, then the visible list (after a single or late cull)
  VkDeviceSize counts_offset(std::uint32_t set) const {
    return set * (draw_buf_[0].size() + visible_buf_[0].size());
  }
  gpu::Buffer shadow_visible_buf_, shadow_draw_buf_;
  gpu::AppendOverflow overflow_, shadow_overflow_;  // of the camera's and the shadow view's culling
  TwoPhaseCull two_phase_, shadow_two_phase_;
  bool late_drawn_ = false;  // the last camera frame was two-phase: counts add both outputs
  std::uint32_t max_arenas_;
  gpu::Image tiles_;  // 2D array, layer = tile id
  gpu::Sampler tile_sampler_;
  ShadedPipeline pipeline_;
  gpu::Pipeline shadow_pipeline_;
  ShadowReceiver shadow_receiver_;
  TerrainFrameStats stats_;
  TerrainShadowStats shadow_stats_;
  std::uint32_t debug_mode_ = 0;
  bool coarse_test_ = true;
  std::uint32_t region_chunks_ = 1, regions_x_ = 1, regions_z_ = 1;
};

}  // namespace myriad::render
