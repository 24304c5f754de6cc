// LOD2 (SPEC C6): a closed mesh within the triangle range, every vertex on the original surface
// after shrink-wrap, attachments that reproduce the vertex from LOD0's corners, and a silhouette
// within the hole check's limits.
#include "myriad/crowd_bake/remesh/lod2_remesh.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/lod/hole_check.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/remesh/remesh_closest_point.hpp"
#include "myriad/crowd_bake/lod/silhouette_raster.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"
#include "myriad/crowd_bake/uv/uv_unwrap.hpp"
#include "myriad/crowd_bake/import/weld.hpp"
#include "remesh_test_meshes.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <tuple>

namespace myriad::crowd {
namespace {

struct Lod2Fixture {
  BakeMesh original;
  std::vector<BakeMaterial> materials = {{"skin", glm::vec4(1.0f), 0, false}};
  std::vector<anim::Texture> textures;
  UnwrapResult lod0;
  Lod2Result lod2;
  double seconds = 0.0;
};

const Lod2Fixture& humanoid_lod2() {
  static const Lod2Fixture fixture = [] {
    Lod2Fixture f;
    f.original = test::make_capsule_humanoid();
    f.textures = {test::make_smooth_texture(32)};
    f.lod0 = unwrap_and_rebake(weld(f.original).mesh, f.original, f.materials, f.textures, {});
    const auto start = std::chrono::steady_clock::now();
    f.lod2 = remesh_lod2(f.lod0.mesh, f.lod0.texture, f.materials, {});
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
  }();
  return fixture;
}

// Distance from p to the nearest triangle of `mesh` (brute force: the test's own reference).
float distance_to_surface(const BakeMesh& mesh, glm::vec3 p) {
  float best = std::numeric_limits<float>::max();
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const ClosestHit hit =
        closest_on_triangle(p, mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
                            mesh.positions[mesh.indices[3 * t + 2]]);
    best = std::min(best, hit.distance);
  }
  return best;
}

// Edges not matched by exactly one opposite edge (0 for a closed, consistently wound mesh). UV
// seams split vertices, so edges are compared by position.
std::size_t open_edges(const BakeMesh& mesh) {
  std::map<std::tuple<float, float, float>, std::uint32_t> by_position;
  std::vector<std::uint32_t> id(mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    const glm::vec3 p = mesh.positions[v];
    id[v] =
        by_position.emplace(std::make_tuple(p.x, p.y, p.z), static_cast<std::uint32_t>(by_position.size()))
            .first->second;
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    for (std::size_t k = 0; k < 3; ++k)
      ++directed[{id[mesh.indices[3 * t + k]], id[mesh.indices[3 * t + (k + 1) % 3]]}];
  }
  std::size_t open = 0;
  for (const auto& [edge, count] : directed) {
    const auto opposite = directed.find({edge.second, edge.first});
    if (count != 1 || opposite == directed.end() || opposite->second != 1) ++open;
  }
  return open;
}

TEST(Lod2, IsClosedAndWithinTheTriangleRange) {
  const Lod2Fixture& f = humanoid_lod2();
  const BakeMesh& mesh = f.lod2.mesh;
  validate(mesh, f.materials.size(), "LOD2 under test");
  std::printf(
      "LOD2 of the capsule humanoid (%zu LOD0 triangles): %zu triangles, %zu vertices, atlas %ux%u, %.3f s\n",
      f.lod0.mesh.triangle_count(), mesh.triangle_count(), mesh.vertex_count(), f.lod2.texture.width,
      f.lod2.texture.height, f.seconds);
  EXPECT_GE(mesh.triangle_count(), 200u);
  EXPECT_LE(mesh.triangle_count(), 460u);
  EXPECT_EQ(open_edges(mesh), 0u);
}

TEST(Lod2, VerticesLieOnTheOriginalSurfaceAndAttachmentsReproduceThem) {
  const Lod2Fixture& f = humanoid_lod2();
  const BakeMesh& mesh = f.lod2.mesh;
  const BakeMesh& lod0 = f.lod0.mesh;
  ASSERT_EQ(f.lod2.attachments.size(), mesh.vertex_count());
  float worst_distance = 0.0f, worst_attachment = 0.0f;
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    worst_distance = std::max(worst_distance, distance_to_surface(lod0, mesh.positions[v]));
    const Attachment& a = f.lod2.attachments[v];
    ASSERT_LT(a.a, lod0.vertex_count());
    ASSERT_LT(a.b, lod0.vertex_count());
    ASSERT_LT(a.c, lod0.vertex_count());
    EXPECT_GE(std::min({a.w.x, a.w.y, a.w.z}), 0.0f);
    EXPECT_FLOAT_EQ(a.w.x + a.w.y + a.w.z, 1.0f);
    const glm::vec3 attached =
        a.w.x * lod0.positions[a.a] + a.w.y * lod0.positions[a.b] + a.w.z * lod0.positions[a.c];
    worst_attachment = std::max(worst_attachment, glm::length(attached - mesh.positions[v]));
    EXPECT_NEAR(mesh.weights[v].x + mesh.weights[v].y + mesh.weights[v].z + mesh.weights[v].w, 1.0f, 1e-5f);
  }
  std::printf("LOD2 vertex distance to the original: worst %.5f; attachment error worst %.5f (height 1.8)\n",
              static_cast<double>(worst_distance), static_cast<double>(worst_attachment));
  EXPECT_LT(worst_distance, 0.01f);
  EXPECT_LT(worst_attachment, 0.01f);
}

TEST(Lod2, PassesTheHoleCheckAgainstTheOriginal) {
  const Lod2Fixture& f = humanoid_lod2();
  const HoleCheckResult check = check_holes(f.original, f.lod2.mesh, f.materials, {});
  std::printf("LOD2 hole check: worst holes %.4f (view %d), worst loss %.4f (view %d)\n",
              static_cast<double>(check.worst_holes), check.worst_holes_view,
              static_cast<double>(check.worst_loss), check.worst_loss_view);
  EXPECT_TRUE(check.passed);
  // Holes and loss say nothing about shrinking: LOD2 must also cover most of the original's pixels.
  for (const glm::vec3& direction : silhouette_directions(11)) {
    const SilhouetteView view = frame_silhouette(f.original, direction, 120);
    const std::vector<std::uint8_t> a = rasterize_silhouette(f.original, f.materials, view);
    const std::vector<std::uint8_t> b = rasterize_silhouette(f.lod2.mesh, f.materials, view);
    std::size_t original_pixels = 0, covered = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      original_pixels += a[i];
      covered += a[i] & b[i];
    }
    EXPECT_GT(covered, original_pixels * 9 / 10);
  }
}

// The procedural skeleton enemy: thin bone tubes, rib rings and a skull, the case LOD2 is made for.
TEST(Lod2, ProceduralEnemyIsClosedAndPassesTheHoleCheck) {
  const BakeSource source = import_for_bake(make_enemy(), "procedural enemy");
  const UnwrapResult lod0 =
      unwrap_and_rebake(weld(source.mesh).mesh, source.mesh, source.materials, source.textures, {});
  const auto start = std::chrono::steady_clock::now();
  const Lod2Result lod2 = remesh_lod2(lod0.mesh, lod0.texture, source.materials, {});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const HoleCheckResult check = check_holes(source.mesh, lod2.mesh, source.materials, {});
  std::printf(
      "enemy: LOD0 %zu vertices / %zu triangles (%zu charts, atlas %ux%u); LOD2 %zu vertices / %zu triangles "
      "in %.3f s; holes %.4f loss %.4f\n",
      lod0.mesh.vertex_count(), lod0.mesh.triangle_count(), lod0.chart_count, lod0.texture.width,
      lod0.texture.height, lod2.mesh.vertex_count(), lod2.mesh.triangle_count(), seconds,
      static_cast<double>(check.worst_holes), static_cast<double>(check.worst_loss));
  EXPECT_GE(lod2.mesh.triangle_count(), 200u);
  EXPECT_LE(lod2.mesh.triangle_count(), 460u);
  EXPECT_EQ(open_edges(lod2.mesh), 0u);
  EXPECT_TRUE(check.passed);
}

// The LOD0 surface point nearest to `p`, by trying every triangle.
ClosestHit nearest_by_brute_force(const BakeMesh& lod0, glm::vec3 p) {
  ClosestHit best;
  best.distance = std::numeric_limits<float>::max();
  for (std::size_t u = 0; u < lod0.triangle_count(); ++u) {
    ClosestHit hit =
        closest_on_triangle(p, lod0.positions[lod0.indices[3 * u]], lod0.positions[lod0.indices[3 * u + 1]],
                            lod0.positions[lod0.indices[3 * u + 2]]);
    hit.triangle = static_cast<std::uint32_t>(u);
    if (hit.distance < best.distance) best = hit;
  }
  return best;
}

TEST(Lod2, TextureKeepsLod0sDensityAndColours) {
  const Lod2Fixture& f = humanoid_lod2();
  const BakeMesh& mesh = f.lod2.mesh;
  ASSERT_EQ(mesh.uvs.size(), mesh.vertex_count());
  for (const glm::vec2& uv : mesh.uvs) {
    EXPECT_TRUE(uv.x >= 0.0f && uv.x <= 1.0f && uv.y >= 0.0f && uv.y <= 1.0f);
  }
  // LOD0's texel density is kept (the atlas is far below the size limit, so nothing was reduced).
  const float lod0_density = atlas_texel_density(f.lod0.mesh, f.lod0.texture.width, f.lod0.texture.height);
  const float lod2_density = atlas_texel_density(mesh, f.lod2.texture.width, f.lod2.texture.height);
  EXPECT_NEAR(lod2_density, lod0_density, 0.01f * lod0_density);
  // At each triangle's centre the atlas holds LOD0's colour at the nearest LOD0 surface point (found
  // here by brute force); a texel or so of offset is allowed, colour edges between capsules aside.
  std::size_t close = 0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    glm::vec3 centre(0.0f);
    glm::vec2 uv(0.0f);
    for (std::size_t k = 0; k < 3; ++k) {
      centre += mesh.positions[mesh.indices[3 * t + k]] / 3.0f;
      uv += mesh.uvs[mesh.indices[3 * t + k]] / 3.0f;
    }
    const BakeMesh& lod0 = f.lod0.mesh;
    const ClosestHit best = nearest_by_brute_force(lod0, centre);
    const std::uint32_t* g = &lod0.indices[3 * static_cast<std::size_t>(best.triangle)];
    const glm::vec2 uv0 =
        best.bary.x * lod0.uvs[g[0]] + best.bary.y * lod0.uvs[g[1]] + best.bary.z * lod0.uvs[g[2]];
    const glm::vec4 expected = sample_texture(f.lod0.texture, uv0);
    const glm::vec4 baked = sample_texture(f.lod2.texture, uv);
    close += glm::length(glm::vec3(expected - baked)) < 0.08f ? 1 : 0;
  }
  std::printf("LOD2 texture: %zu of %zu triangle centres within 0.08 of LOD0's colour\n", close,
              mesh.triangle_count());
  // LOD2's charts are merged while they flatten within the area-distortion limit (fewer seam
  // vertices), so some texels stretch: three in four centres, not all, match within 0.08.
  EXPECT_GT(close, mesh.triangle_count() * 3 / 4);
}

// With a source colour (the bake passes the original textures) LOD2's texels come from it, at the
// nearest LOD0 point: here the point's position as a colour (smooth over the surface, and nothing
// LOD0's atlas holds).
TEST(Lod2, TextureComesFromTheSourceColourWhenGiven) {
  const Lod2Fixture& f = humanoid_lod2();
  const BakeMesh& lod0 = f.lod0.mesh;
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : lod0.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const TriangleColour source = [&](std::uint32_t t, glm::vec3 bary) {
    const std::uint32_t* g = &lod0.indices[3 * static_cast<std::size_t>(t)];
    const glm::vec3 p =
        bary.x * lod0.positions[g[0]] + bary.y * lod0.positions[g[1]] + bary.z * lod0.positions[g[2]];
    return glm::vec4((p - lo) / (hi - lo), 1.0f);
  };
  const Lod2Result lod2 = remesh_lod2(f.lod0.mesh, f.lod0.texture, f.materials, {}, &source);
  std::size_t close = 0;
  for (std::size_t t = 0; t < lod2.mesh.triangle_count(); ++t) {
    glm::vec3 centre(0.0f);
    glm::vec2 uv(0.0f);
    for (std::size_t k = 0; k < 3; ++k) {
      centre += lod2.mesh.positions[lod2.mesh.indices[3 * t + k]] / 3.0f;
      uv += lod2.mesh.uvs[lod2.mesh.indices[3 * t + k]] / 3.0f;
    }
    const ClosestHit best = nearest_by_brute_force(f.lod0.mesh, centre);
    const glm::vec4 expected = source(best.triangle, best.bary);
    close += glm::length(glm::vec3(expected - sample_texture(lod2.texture, uv))) < 0.08f ? 1 : 0;
  }
  EXPECT_GT(close, lod2.mesh.triangle_count() * 4 / 5);
}

TEST(Lod2, RejectsBadInput) {
  const Lod2Fixture& f = humanoid_lod2();
  Lod2Options bad;
  bad.target_triangles = 4;
  EXPECT_THROW(remesh_lod2(f.lod0.mesh, f.lod0.texture, f.materials, bad), Error);
  BakeMesh no_uvs = f.lod0.mesh;
  no_uvs.uvs.clear();
  EXPECT_THROW(remesh_lod2(no_uvs, f.lod0.texture, f.materials, {}), Error);
  EXPECT_THROW(remesh_lod2(f.lod0.mesh, anim::Texture{}, f.materials, {}), Error);
}

}  // namespace
}  // namespace myriad::crowd
