// Voxel-world vegetation on the GPU (V15): grass and baked models from 16-byte instances (near LOD two
// crossed quads, far LOD a camera-facing billboard, alpha cutout) and trees drawn from baked templates
// (kTreeTemplates, picked by the instance's template id) with per-frame wind sway computed once per
// tree in compute.
//
// Cost follows content: the instances lie in dense arrays sized by their count plus slack (grown by
// re-packing when a section no longer fits), each section owning one range [first, first + count);
// a section change rewrites only its range and the small table of live ranges. Culling and wind run
// one thread per live instance (the table maps a thread to its slot). Culling reruns only when the
// view matrix, the slice height or the instances changed (V13): otherwise the last frame's draw lists
// are drawn again; the wind reruns when the time changed. A CPU check of section groups runs first:
// with none visible, the dispatches (wind included) and the draws are skipped entirely.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/layout/range_allocator.hpp"
#include "myriad/gpu/memory/append_overflow.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/host_readback.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/terrain/coarse_chunks.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/interaction_field.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/passes/two_phase_cull.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::render {

struct VoxelVegetationOptions {
  // Initial instance slots (below 2^30); the arrays grow (re-packed) when the instances need more.
  std::uint32_t grass_capacity = 1024;
  std::uint32_t tree_capacity = 64;
  // Spare slots per section range, so that an edit adding a few instances rewrites the range in place.
  std::uint32_t grass_section_slack = 4;
  std::uint32_t tree_section_slack = 1;
  std::uint64_t template_seed = 0x7EE5;  // the tree templates' shapes
  float lod_distance = 24.0f;            // grass nearer than this uses two crossed quads, farther a billboard
  float max_distance = 400.0f;           // nothing farther is drawn
  // Section instance and range bytes staged per frame (the "voxel vegetation" share of the upload
  // queue; within the staging ring's frame budget as well).
  std::uint64_t upload_budget = 16ull << 20;

  // Throws myriad::Error naming the first invalid field (the renderer's constructor calls it).
  void validate() const;
};

struct VoxelVegetationStats {
  bool skipped = false;  // no section group visible: no dispatch, no wind, no draw
  bool reused = false;   // view, slice and instances as last culled: last frame's lists drawn again
  std::uint32_t dispatches = 0;
  std::uint64_t threads = 0;  // compute invocations dispatched this frame (culling and wind)
  std::uint32_t draws = 0;
  std::uint32_t pipeline_binds = 0;
  std::uint32_t group_tests = 0;  // CPU section-group tests
  std::uint64_t uploaded_bytes = 0;
  std::uint32_t pending_copies = 0;     // section copies left for later frames by the upload budget
  std::uint32_t shadow_draws = 0;       // draw_shadow: instanced draws (runs of tree slots)
  std::uint32_t shadow_tree_slots = 0;  // draw_shadow: tree slots submitted (each tested in the shader)
};

struct VoxelVegetationCounts {
  std::uint32_t grass_near = 0, grass_far = 0, trees = 0;
  std::uint64_t vertices = 0;  // non-indexed triangle lists: vertices / 3 triangles
};

class VoxelVegetationRenderer : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  VoxelVegetationRenderer(gpu::Context& ctx, glm::ivec3 sections, VkFormat color_format,
                          VkFormat depth_format, const VoxelVegetationOptions& config = {});
  ~VoxelVegetationRenderer() override;
  VoxelVegetationRenderer(const VoxelVegetationRenderer&) = delete;
  VoxelVegetationRenderer& operator=(const VoxelVegetationRenderer&) = delete;

  // Where grass and trees read their wind (and grass its trampling): `field`'s buffer, or (null, the
  // default) a stand-in with the default wind and nothing trampling.
  void set_motion(const InteractionField* field) { motion_.set_field(field); }

  // Replaces a section's instances (an empty set frees its ranges). When the arrays are full they are
  // re-created larger and every section re-packed: the caller guarantees that no submitted frame still
  // uses them (as for TwoPhaseCull::reserve).
  void set_section(int section, const voxel::SectionVegetation& vegetation);

  // Outside rendering, first in a frame: the staged section changes.
  void upload(VkCommandBuffer cmd) override;
  // Two-phase Hi-Z: phase 1 draws the instances drawn last frame, phase 2 those the pyramid newly shows.
  bool occlusion_culled() const override { return true; }
  // Outside rendering, after upload(). Single or early pass: the CPU group check, then culling + LOD +
  // wind (view.time) in compute; late pass: culling against the pyramid (nothing when the group check
  // found nothing).
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  // Inside rendering, per phase. With `shadow`, the sun term is darkened where the map says occluded.
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // On the CPU: the trees near enough to the camera (max_distance, as for the camera) whose sections
  // pass a test against the shadow view's frustum; when any, this frame's wind sway (unless it is
  // current), so the trees' shadows sway with them. Inside the shadow map's pass: their depth, each tree
  // tested again in the vertex shader. Grass does not cast: blades are a few centimetres tall and their
  // shadows would be finer than a shadow-map texel.
  void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;

  const VoxelVegetationStats& stats() const { return stats_; }
  SystemFrameStats read_frame_stats(bool drawn) override;
  // After the frame completed: what the last camera culling kept (both phases after a two-phase frame),
  // from the copies the frame made (no read-back submission).
  VoxelVegetationCounts read_counts();
  // The grass ids one phase's cull kept (`set` 0: single or early, 1: late).
  std::vector<std::uint32_t> read_visible_grass(bool far, std::uint32_t set = 0);
  std::vector<std::uint32_t> read_visible_trees(std::uint32_t set = 0);
  // After the frame completed: the camera cull's counts (grass and trees together; zeros but the
  // candidates when the group check skipped the frame). Reads back the draws too.
  CullCounts read_cull_counts();
  // The same without the draws' read-back.
  shader::CullCounters cull_counters() const;
  // After the frame completed: instances the last culling dropped because a list was full (0 unless
  // the lists and the instance arrays disagree).
  std::uint32_t overflow() const { return overflow_.read(); }
  const VoxelVegetationOptions& config() const { return config_; }
  // The instance slots a section's live grass and trees occupy, {first, count} (ids in the visible
  // lists are slots; the section's slack follows its range).
  Range grass_range(int section) const { return grass_.live_range(section); }
  Range tree_range(int section) const { return trees_.live_range(section); }
  std::uint32_t grass_slots() const { return grass_.capacity; }
  std::uint32_t tree_slots() const { return trees_.capacity; }
  std::uint64_t live_instances() const { return std::uint64_t(grass_.live) + trees_.live; }
  // Every buffer of the pass: instances, sway, templates, ranges, lists and two-phase state.
  std::uint64_t gpu_bytes() const;
  std::uint32_t template_vertices() const { return template_stride_; }  // per template (padded)

 private:
  // Grass or trees: the dense instance array, its section ranges and the table of live ranges.
  struct Pool {
    std::size_t stride = 0;      // bytes per instance
    std::uint32_t slack = 0;     // spare slots per section range
    std::uint32_t capacity = 0;  // slots of `instances`
    RangeAllocator ranges{0};
    std::vector<Range> allocated;              // per section, slack included
    std::vector<std::uint32_t> count;          // per section: live instances
    std::vector<std::vector<std::byte>> data;  // per section: its instances (re-packing reads them)
    std::uint32_t live = 0;
    gpu::Buffer instances, table;
    bool table_dirty = true;  // the live ranges changed
    Range live_range(int section) const {
      const Range& r = allocated.at(std::size_t(section));
      return {r.offset, count.at(std::size_t(section))};
    }
  };
  // Queues bytes for `dst` tagged with their section (-1: a table), so a newer version drops them.
  void stage(int section, const gpu::Buffer& dst, VkDeviceSize dst_offset, std::span<const std::byte> bytes);
  void empty_slots(VkBuffer dst, VkDeviceSize offset, VkDeviceSize size);
  // Places a section's instances in `pool` (in place when they fit its range, else a new range; grows
  // the pool when none is free).
  void place(Pool& pool, int section, std::span<const std::byte> bytes);
  void grow(Pool& pool, std::uint32_t extra);
  void create_pool_buffers(Pool& pool, bool trees);
  void stage_table(Pool& pool);
  void update_group(int section, const voxel::SectionVegetation& vegetation);
  // Dispatches over `live` instances (none when 0); counts the threads.
  void dispatch(VkCommandBuffer cmd, std::uint32_t live);
  // Whether the trees' sway is older than `time`, the wind or the trees.
  bool wind_stale(float time) const;
  // The trees' sway at `time` (between the caller's before_output_reset and after_cull_dispatch).
  void record_wind(VkCommandBuffer cmd, float time);

  gpu::Context& ctx_;
  VoxelVegetationOptions config_;
  gpu::UploadShare share_;
  std::uint64_t fill_bytes_ = 0;       // emptied slots queued since the last upload()
  bool cleared_ = false;               // a new array's clear queued since the last upload()
  std::uint64_t reported_staged_ = 0;  // the share's staged_total at the last upload()
  Pool grass_, trees_;
  std::vector<Aabb> section_tree_bounds_;     // what a section's trees can cover, for the shadow test
  std::vector<Range> shadow_runs_;            // cull_shadow's instanced draws (merged slot ranges)
  std::vector<std::uint32_t> table_scratch_;  // stage_table's range table (its capacity kept)
  std::size_t shadow_run_count_ = 0;
  CoarseChunks groups_;
  std::vector<std::uint8_t> group_visible_;

  // Culling outputs: [0] the single or early pass, [1] the late pass.
  gpu::Buffer grass_visible_[2], tree_visible_[2], grass_draws_[2], tree_draws_[2];
  gpu::Buffer sway_, template_;
  std::uint32_t template_stride_ = 0;
  gpu::Pipeline grass_cull_, tree_cull_, grass_cull_hiz_, tree_cull_hiz_, tree_wind_, tree_shadow_;
  ShadedPipeline grass_draw_, tree_draw_;
  gpu::AppendOverflow overflow_;  // of the grass and tree culling
  gpu::HostReadback counts_;      // both sets' grass and tree draws after the last single or late cull
  TwoPhaseCull grass_two_phase_, tree_two_phase_;
  bool late_culled_ = false;  // the last camera cull was phase 2: counts add both outputs
  ShadowReceiver shadow_receiver_;
  PlantMotionReceiver motion_;
  VoxelVegetationStats stats_;
  // V13: what the last culling saw, and how its lists were made.
  std::uint64_t version_ = 1;  // bumped by every change of the instances on the GPU
  CullTracker tracker_;
  enum class Lists { kNone, kSingle, kEarly, kTwoPhase } lists_ = Lists::kNone;
  bool reuse_frame_ = false;  // this frame draws the last lists again
  bool last_skipped_ = false;
  float wind_time_ = 0.0f;
  std::uint64_t wind_version_ = 0;    // version_ the sway was computed for (0: never)
  VkDeviceAddress wind_address_ = 0;  // the motion buffer and wind it was computed with
  WindParams wind_params_;
};

}  // namespace myriad::render
