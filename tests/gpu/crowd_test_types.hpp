// Crowd types for GPU tests without running the whole baker: the procedural enemy welded (LOD0), with
// LOD1 and LOD2 as prefixes of LOD0's triangles (1/2 and 1/4), sharing LOD0's VAT columns and texture.
// Only what rendering reads must be right here; the baker's own output is tested in tests/crowd.
#pragma once

#include "myriad/core/cull/bounds.hpp"
#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/import/weld.hpp"

namespace myriad::test {

inline crowd::CrowdFile make_test_crowd_type(const crowd::EnemyOptions& options = {}) {
  const anim::ImportedModel model = crowd::make_enemy(options);
  const crowd::BakeSource src = crowd::import_for_bake(model, "enemy");
  const crowd::BakeMesh welded = crowd::weld(src.mesh).mesh;
  const crowd::Vat vat = crowd::bake_vat(model, welded, {});
  crowd::CrowdFile f;
  f.name = "test enemy";
  f.textures = src.textures;
  for (const crowd::BakeMaterial& m : src.materials) f.materials.push_back({m.name, m.double_sided});
  const std::size_t triangles = welded.triangle_count();
  for (std::size_t divisor : {1u, 2u, 4u}) {
    crowd::CrowdLod lod;
    lod.positions = welded.positions;
    lod.normals = welded.normals;
    lod.uvs.assign(welded.vertex_count(), glm::vec2(0.5f));
    for (std::uint32_t v = 0; v < welded.vertex_count(); ++v) lod.columns.push_back(v);
    lod.indices.assign(welded.indices.begin(),
                       welded.indices.begin() + std::ptrdiff_t(triangles / divisor * 3));
    lod.triangle_material.assign(lod.indices.size() / 3, 0);
    f.lods.push_back(std::move(lod));
  }
  myriad::Aabb bind, animated;
  for (const glm::vec3& p : welded.positions) bind.expand(p);
  for (const glm::vec3& p : vat.positions) animated.expand(p);
  f.bind_min = bind.min;
  f.bind_max = bind.max;
  f.animated_min = animated.min;
  f.animated_max = animated.max;
  f.fps = vat.fps;
  f.columns = vat.columns;
  f.skinned_columns = vat.columns;
  f.rows = vat.rows;
  f.clips = vat.clips;
  f.texels = vat.texels;
  return f;
}

}  // namespace myriad::test
