#include "myriad/batch/scene.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>

namespace myriad::batch {

BatchScene::BatchScene(const PropertySetRegistry& sets) : sets_(sets) {}

std::uint32_t BatchScene::add_lod_group(const LodGroup& group) {
  if (group.level_count < 1 || group.level_count > kMaxLods)
    throw Error("LOD group needs 1 to 4 levels", "LodGroup.level_count");
  for (std::uint32_t i = 1; i < group.level_count; ++i) {
    if (group.transitions[i] > group.transitions[i - 1])
      throw Error("LOD transitions must descend", "LodGroup.transitions");
  }
  lod_groups_.push_back(group);
  return static_cast<std::uint32_t>(lod_groups_.size() - 1);
}

std::uint32_t BatchScene::add_renderer(const RendererDesc& d) {
  if (d.lod_group != kNoLodGroup) {
    if (d.lod_group >= lod_groups_.size())
      throw Error("renderer names an unknown LOD group", "RendererDesc.lod_group");
    if (d.lod_level >= lod_groups_[d.lod_group].level_count)
      throw Error("LOD level beyond the group's levels", "RendererDesc.lod_level");
  }
  for (const DrawDesc& dd : d.draws) {
    if (dd.type >= sets_.size()) throw Error("unknown batch type (property set)", "DrawDesc.type");
    if (dd.mesh > 0xFFFFFFu || dd.material > 0xFFFFFFu)
      throw Error("mesh or material id exceeds 24 bits", "DrawDesc");
    if (!dd.properties.empty() && dd.properties.size() != sets_.get(dd.type).floats_per_instance()) {
      throw Error("property value count differs from the set's floats", "DrawDesc.properties",
                  "give every property of set '" + sets_.get(dd.type).name + "' or none");
    }
  }
  if (batches_.size() < sets_.size()) {
    const std::size_t old = batches_.size();
    batches_.resize(sets_.size());
    free_slots_.resize(sets_.size());
    for (std::size_t t = old; t < batches_.size(); ++t) {
      batches_[t].floats_per_instance = sets_.get(static_cast<BatchType>(t)).floats_per_instance();
    }
  }
  const std::uint32_t r = take_renderer_index();
  const std::uint32_t first = take_draw_range(d.draws.size());
  culling_.bounds[r] = d.bounds;
  culling_.layer_mask[r] = d.layer_mask;
  culling_.lod_group[r] = d.lod_group;
  culling_.lod_level[r] = d.lod_level;
  culling_.first_draw[r] = first;
  culling_.draw_count[r] = static_cast<std::uint32_t>(d.draws.size());
  const Mat3x4 rows = to_mat3x4(d.object_to_world);
  for (std::size_t k = 0; k < d.draws.size(); ++k) {
    const DrawDesc& dd = d.draws[k];
    Batch& b = batches_[dd.type];
    const std::uint32_t slot = take_slot(dd.type);
    b.object_to_world[slot] = rows;
    b.palette_offset[slot] = d.palette_offset;
    b.fade[slot] = 0;
    const std::vector<float>& defaults = sets_.get(dd.type).defaults;
    const std::span<const float> values =
        dd.properties.empty() ? std::span<const float>(defaults) : dd.properties;
    std::copy(values.begin(), values.end(),
              b.properties.begin() + std::ptrdiff_t{slot} * b.floats_per_instance);
    mark(dd.type, slot);
    const std::size_t di = first + k;
    draws_.renderer[di] = r;
    draws_.mesh[di] = dd.mesh;
    draws_.material[di] = dd.material;
    draws_.type[di] = dd.type;
    draws_.slot[di] = slot;
  }
  alive_[r] = 1;
  ++live_;
  return r;
}

std::uint32_t BatchScene::take_renderer_index() {
  if (!free_renderers_.empty()) {
    const std::uint32_t r = free_renderers_.back();
    free_renderers_.pop_back();
    return r;
  }
  const auto r = static_cast<std::uint32_t>(culling_.size());
  culling_.bounds.emplace_back();
  culling_.layer_mask.push_back(0);
  culling_.lod_group.push_back(kNoLodGroup);
  culling_.lod_level.push_back(0);
  culling_.first_draw.push_back(0);
  culling_.draw_count.push_back(0);
  alive_.push_back(0);
  return r;
}

// Draw instances of a renderer stay contiguous, so a freed range is reused only by a renderer with
// the same number of draws (renderers mostly come in a few shapes: the parts of one avatar kind).
std::uint32_t BatchScene::take_draw_range(std::size_t count) {
  if (count < free_draw_ranges_.size() && !free_draw_ranges_[count].empty()) {
    const std::uint32_t first = free_draw_ranges_[count].back();
    free_draw_ranges_[count].pop_back();
    return first;
  }
  const auto first = static_cast<std::uint32_t>(draws_.size());
  const std::size_t n = draws_.size() + count;
  draws_.renderer.resize(n, kNoRenderer);
  draws_.mesh.resize(n, 0);
  draws_.material.resize(n, 0);
  draws_.type.resize(n, 0);
  draws_.slot.resize(n, 0);
  return first;
}

std::uint32_t BatchScene::take_slot(BatchType type) {
  std::vector<std::uint32_t>& free = free_slots_[type];
  if (!free.empty()) {
    const std::uint32_t slot = free.back();
    free.pop_back();
    return slot;
  }
  Batch& b = batches_[type];
  const auto slot = static_cast<std::uint32_t>(b.size());
  b.object_to_world.emplace_back();
  b.palette_offset.push_back(0);
  b.fade.push_back(0);
  b.properties.resize(b.properties.size() + b.floats_per_instance, 0.0f);
  return slot;
}

void BatchScene::remove_renderer(std::uint32_t r) {
  require_alive(r, "BatchScene::remove_renderer");
  const std::uint32_t first = culling_.first_draw[r];
  const std::uint32_t count = culling_.draw_count[r];
  for (std::uint32_t d = first; d < first + count; ++d) {
    // The slot's old data stays in the batch (and on the GPU) unreferenced until it is reused.
    free_slots_[draws_.type[d]].push_back(draws_.slot[d]);
    draws_.renderer[d] = kNoRenderer;
  }
  if (count > 0) {
    if (free_draw_ranges_.size() <= count) free_draw_ranges_.resize(count + 1);
    free_draw_ranges_[count].push_back(first);
  }
  culling_.layer_mask[r] = 0;
  culling_.lod_group[r] = kNoLodGroup;
  culling_.draw_count[r] = 0;
  alive_[r] = 0;
  --live_;
  free_renderers_.push_back(r);
}

void BatchScene::require_alive(std::uint32_t renderer, const char* where) const {
  if (!alive(renderer)) throw Error("no live renderer with this index", where);
}

void BatchScene::mark(BatchType type, std::uint32_t slot) {
  Batch& b = batches_[type];
  if (b.dirty_begin >= b.dirty_end) {
    b.dirty_begin = slot;
    b.dirty_end = slot + 1;
  } else {
    b.dirty_begin = std::min(b.dirty_begin, slot);
    b.dirty_end = std::max(b.dirty_end, slot + 1);
  }
}

void BatchScene::set_transform(std::uint32_t renderer, const glm::mat4& m, const Sphere& world_bounds) {
  require_alive(renderer, "BatchScene::set_transform");
  culling_.bounds[renderer] = world_bounds;
  const Mat3x4 rows = to_mat3x4(m);
  const std::uint32_t first = culling_.first_draw[renderer];
  for (std::uint32_t d = first; d < first + culling_.draw_count[renderer]; ++d) {
    Batch& b = batches_[draws_.type[d]];
    b.object_to_world[draws_.slot[d]] = rows;
    mark(draws_.type[d], draws_.slot[d]);
  }
}

void BatchScene::set_instance_word(std::uint32_t renderer, std::vector<std::uint32_t> Batch::*field,
                                   std::uint32_t value) {
  const std::uint32_t first = culling_.first_draw[renderer];
  for (std::uint32_t d = first; d < first + culling_.draw_count[renderer]; ++d) {
    (batches_[draws_.type[d]].*field)[draws_.slot[d]] = value;
    mark(draws_.type[d], draws_.slot[d]);
  }
}

void BatchScene::set_palette_offset(std::uint32_t renderer, std::uint32_t offset) {
  require_alive(renderer, "BatchScene::set_palette_offset");
  set_instance_word(renderer, &Batch::palette_offset, offset);
}

void BatchScene::set_fade(std::uint32_t renderer, std::uint32_t fade) {
  require_alive(renderer, "BatchScene::set_fade");
  set_instance_word(renderer, &Batch::fade, fade);
}

void BatchScene::set_properties(std::uint32_t renderer, std::uint32_t draw, std::span<const float> values) {
  require_alive(renderer, "BatchScene::set_properties");
  if (draw >= culling_.draw_count[renderer])
    throw Error("draw index out of range", "BatchScene::set_properties");
  const std::uint32_t d = culling_.first_draw[renderer] + draw;
  Batch& b = batches_[draws_.type[d]];
  if (values.size() != b.floats_per_instance)
    throw Error("property value count differs", "BatchScene::set_properties");
  std::copy(values.begin(), values.end(),
            b.properties.begin() + std::ptrdiff_t{draws_.slot[d]} * b.floats_per_instance);
  mark(draws_.type[d], draws_.slot[d]);
}

void BatchScene::collect_dirty(std::vector<DirtyRange>& out) {
  for (std::size_t t = 0; t < batches_.size(); ++t) {
    Batch& b = batches_[t];
    if (b.dirty_begin < b.dirty_end) out.push_back({static_cast<BatchType>(t), b.dirty_begin, b.dirty_end});
    b.dirty_begin = b.dirty_end = 0;
  }
}

}  // namespace myriad::batch
