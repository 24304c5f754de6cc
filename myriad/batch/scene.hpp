// The batch renderer's three data layers (SPEC B1, B3), all structure-of-arrays of trivially
// copyable values: culling instances (one per renderer), draw instances (one per renderer x material)
// and batches (per batch type, the GPU-ready per-instance data: object-to-world 3x4 rows, skinning
// palette offset, property floats). Writes mark dirty ranges so only changed data is uploaded.
// Renderers can be removed: their renderer index, draw-instance range and batch slots go on free
// lists and are reused by later additions, so the arrays (and the GPU buffers sized from them) stay
// as large as the most renderers alive at once rather than growing with every add/remove.
#pragma once

#include "myriad/batch/property_set.hpp"
#include "myriad/core/cull/bounds.hpp"
#include "myriad/core/math/math.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace myriad::batch {

inline constexpr std::uint32_t kNoLodGroup = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::size_t kMaxLods = 4;
// DrawLayer::renderer of a draw instance whose renderer was removed (its range awaits reuse).
inline constexpr std::uint32_t kNoRenderer = std::numeric_limits<std::uint32_t>::max();

// A LOD group selects one level for all its renderers from the group's screen-relative height
// (size / (distance * 2 tan(fov/2))): level i while height >= transitions[i]; below the last, none.
struct LodGroup {
  glm::vec3 center{0.0f};
  float size = 1.0f;
  std::uint32_t level_count = 1;
  float transitions[kMaxLods] = {0.0f, 0.0f, 0.0f, 0.0f};  // descending
  // Dithered cross-fade (0: none): around each transition t a band of heights [t (1 - b/2),
  // t (1 + b/2)) in which the group draws level i and level i + 1, with complementary dither masks
  // whose threshold q (1..255) grows as the height falls through the band (batch/cull.hpp).
  float fade_band = 0.0f;
};

struct DrawDesc {
  std::uint32_t mesh = 0;
  std::uint32_t material = 0;
  BatchType type = 0;
  std::span<const float> properties;  // initial values; empty = the set's defaults
};

struct RendererDesc {
  Sphere bounds;  // world space
  std::uint32_t layer_mask = 1;
  std::uint32_t lod_group = kNoLodGroup;
  std::uint8_t lod_level = 0;
  glm::mat4 object_to_world{1.0f};
  std::uint32_t palette_offset = 0;  // into the global skinning palette buffer (skinned renderers)
  std::span<const DrawDesc> draws;   // one per material
};

// Layer 1: one culling instance per renderer. A removed renderer's entry stays (index reuse) with
// layer mask 0 and no draws, so culling never selects it.
struct CullingLayer {
  std::vector<Sphere> bounds;
  std::vector<std::uint32_t> layer_mask;
  std::vector<std::uint32_t> lod_group;
  std::vector<std::uint8_t> lod_level;
  std::vector<std::uint32_t> first_draw;  // its draw instances are [first_draw, first_draw + draw_count)
  std::vector<std::uint32_t> draw_count;
  std::size_t size() const { return bounds.size(); }
};

// Layer 2: one draw instance per renderer x material.
struct DrawLayer {
  std::vector<std::uint32_t> renderer;  // kNoRenderer for a free entry
  std::vector<std::uint32_t> mesh;
  std::vector<std::uint32_t> material;
  std::vector<BatchType> type;
  std::vector<std::uint32_t> slot;  // instance index within its batch
  std::size_t size() const { return renderer.size(); }
};

// Layer 3: one batch per batch type; its arrays are what the GPU reads per instance.
struct Batch {
  std::uint32_t floats_per_instance = 0;
  std::vector<Mat3x4> object_to_world;
  std::vector<std::uint32_t> palette_offset;
  // The instance's LOD cross-fade: bits 0-7 the dither threshold q, bit 8 set on the incoming (lower)
  // level; 0 = drawn whole (render/shaders/dither.glsl).
  std::vector<std::uint32_t> fade;
  std::vector<float> properties;  // floats_per_instance per instance
  std::uint32_t dirty_begin = 0;  // dirty instance range [begin, end), empty when begin >= end
  std::uint32_t dirty_end = 0;
  std::size_t size() const { return object_to_world.size(); }
};

struct DirtyRange {
  BatchType type;
  std::uint32_t begin;
  std::uint32_t end;
};

class BatchScene {
 public:
  explicit BatchScene(const PropertySetRegistry& sets);

  std::uint32_t add_lod_group(const LodGroup& group);
  // Adds a renderer with its draw instances; returns the renderer index. Throws myriad::Error on an
  // unknown batch type, a bad LOD reference or wrong property counts.
  std::uint32_t add_renderer(const RendererDesc& desc);
  // Removes a renderer: it is never drawn again and its index, draw instances and batch slots are
  // reused by later add_renderer calls. Throws myriad::Error on an index that is not alive.
  void remove_renderer(std::uint32_t renderer);
  bool alive(std::uint32_t renderer) const { return renderer < alive_.size() && alive_[renderer] != 0; }
  std::size_t live_renderers() const { return live_; }

  void set_transform(std::uint32_t renderer, const glm::mat4& object_to_world, const Sphere& world_bounds);
  void set_palette_offset(std::uint32_t renderer, std::uint32_t offset);
  void set_fade(std::uint32_t renderer, std::uint32_t fade);
  void set_properties(std::uint32_t renderer, std::uint32_t draw, std::span<const float> values);
  void set_lod_group_center(std::uint32_t group, glm::vec3 center) { lod_groups_[group].center = center; }

  // Appends the dirty instance range of every batch to `out` and marks everything clean. No range
  // is reported for a batch nobody wrote since the last call.
  void collect_dirty(std::vector<DirtyRange>& out);

  const CullingLayer& culling() const { return culling_; }
  const DrawLayer& draws() const { return draws_; }
  const Batch& batch(BatchType type) const { return batches_[type]; }
  std::size_t batch_count() const { return batches_.size(); }
  const std::vector<LodGroup>& lod_groups() const { return lod_groups_; }
  const PropertySetRegistry& sets() const { return sets_; }

 private:
  // Writes `value` into `field` of every draw instance of `renderer` and marks them dirty.
  void set_instance_word(std::uint32_t renderer, std::vector<std::uint32_t> Batch::*field,
                         std::uint32_t value);
  void mark(BatchType type, std::uint32_t slot);
  void require_alive(std::uint32_t renderer, const char* where) const;
  std::uint32_t take_renderer_index();
  std::uint32_t take_draw_range(std::size_t count);
  std::uint32_t take_slot(BatchType type);

  const PropertySetRegistry& sets_;
  CullingLayer culling_;
  DrawLayer draws_;
  std::vector<Batch> batches_;
  std::vector<LodGroup> lod_groups_;
  std::vector<std::uint8_t> alive_;  // per renderer index
  std::size_t live_ = 0;
  std::vector<std::uint32_t> free_renderers_;
  std::vector<std::vector<std::uint32_t>> free_draw_ranges_;  // [draw count] -> first draw of free ranges
  std::vector<std::vector<std::uint32_t>> free_slots_;        // [batch type] -> free slots
};

}  // namespace myriad::batch
