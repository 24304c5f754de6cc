// The LOD0 re-unwrap (SPEC C3): UVs inside [0,1] without overlap, seams exactly on sharp edges (and
// none on a smooth open patch), and the re-baked atlas reproducing the original colours.
#include "myriad/crowd_bake/uv/uv_unwrap.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/uv/uv_charts.hpp"
#include "myriad/crowd_bake/uv/uv_parameterize.hpp"
#include "myriad/crowd_bake/import/weld.hpp"
#include "crowd_test_assets.hpp"
#include "remesh_test_meshes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <iostream>
#include <set>

namespace myriad::crowd {
namespace {

float edge_fn(glm::vec2 a, glm::vec2 b, glm::vec2 p) {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

// Samples a fine grid strictly inside every UV triangle; a sample claimed twice is an overlap.
std::size_t overlapping_samples(const BakeMesh& mesh, int grid) {
  std::vector<std::uint8_t> count(static_cast<std::size_t>(grid) * static_cast<std::size_t>(grid), 0);
  std::size_t overlaps = 0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    glm::vec2 p[3];
    for (int k = 0; k < 3; ++k)
      p[k] = mesh.uvs[mesh.indices[3 * t + static_cast<std::size_t>(k)]] * static_cast<float>(grid);
    if (edge_fn(p[0], p[1], p[2]) < 0.0f) std::swap(p[1], p[2]);
    const int x0 = std::max(0, static_cast<int>(std::min({p[0].x, p[1].x, p[2].x})));
    const int x1 = std::min(grid - 1, static_cast<int>(std::max({p[0].x, p[1].x, p[2].x})));
    const int y0 = std::max(0, static_cast<int>(std::min({p[0].y, p[1].y, p[2].y})));
    const int y1 = std::min(grid - 1, static_cast<int>(std::max({p[0].y, p[1].y, p[2].y})));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const glm::vec2 c(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
        if (edge_fn(p[0], p[1], c) > 0.0f && edge_fn(p[1], p[2], c) > 0.0f && edge_fn(p[2], p[0], c) > 0.0f) {
          std::uint8_t& n = count[static_cast<std::size_t>(y * grid + x)];
          if (n++ > 0) ++overlaps;
        }
      }
    }
  }
  return overlaps;
}

void expect_uvs_in_unit_square(const BakeMesh& mesh) {
  ASSERT_EQ(mesh.uvs.size(), mesh.positions.size());
  for (const glm::vec2& uv : mesh.uvs) {
    EXPECT_GE(uv.x, 0.0f);
    EXPECT_LE(uv.x, 1.0f);
    EXPECT_GE(uv.y, 0.0f);
    EXPECT_LE(uv.y, 1.0f);
  }
}

// Per input edge shared by two triangles: is it split in the output (a seam), and is it sharp?
struct EdgeSplit {
  std::size_t sharp_split = 0, sharp_joined = 0, smooth_split = 0, smooth_joined = 0;
};

EdgeSplit classify_edges(const BakeMesh& input, const BakeMesh& output, float angle_deg) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>> edges;
  for (std::size_t t = 0; t < input.triangle_count(); ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t a = input.indices[3 * t + k], b = input.indices[3 * t + (k + 1) % 3];
      edges[{std::min(a, b), std::max(a, b)}].push_back(t);
    }
  }
  auto normal = [&](std::size_t t) {
    const glm::vec3 a = input.positions[input.indices[3 * t]];
    return glm::normalize(glm::cross(input.positions[input.indices[3 * t + 1]] - a,
                                     input.positions[input.indices[3 * t + 2]] - a));
  };
  auto output_corner = [&](std::size_t t, std::uint32_t input_vertex) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (input.indices[3 * t + k] == input_vertex) return output.indices[3 * t + k];
    }
    return 0xffffffffu;
  };
  EdgeSplit split;
  const float cos_limit = std::cos(angle_deg * 3.14159265f / 180.0f);
  for (const auto& [key, tris] : edges) {
    if (tris.size() != 2) continue;
    const bool sharp = glm::dot(normal(tris[0]), normal(tris[1])) < cos_limit;
    const bool joined = output_corner(tris[0], key.first) == output_corner(tris[1], key.first) &&
                        output_corner(tris[0], key.second) == output_corner(tris[1], key.second);
    if (sharp) {
      ++(joined ? split.sharp_joined : split.sharp_split);
    } else {
      ++(joined ? split.smooth_joined : split.smooth_split);
    }
  }
  return split;
}

const std::vector<BakeMaterial> kFlatColour = {{"paint", glm::vec4(0.8f, 0.4f, 0.2f, 1.0f), -1, false}};

TEST(Unwrap, BoxGetsOneChartPerFaceWithSeamsOnlyOnItsCreases) {
  const BakeMesh box = test::make_grid_box(6);
  UnwrapOptions strict;
  strict.join_sharp_edges = false;   // a seam on every sharp edge
  strict.keep_original_uvs = false;  // the re-unwrap itself (the box has no UVs to keep)
  const UnwrapResult result = unwrap_and_rebake(box, box, kFlatColour, {}, strict);
  EXPECT_EQ(result.chart_count, 6u);
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 512), 0u);
  const EdgeSplit split = classify_edges(box, result.mesh, 70.0f);
  EXPECT_EQ(split.sharp_split, 12u * 6u);  // 12 cube edges of 6 grid edges each
  EXPECT_EQ(split.sharp_joined, 0u);
  EXPECT_EQ(split.smooth_split, 0u);
  EXPECT_GT(split.smooth_joined, 0u);
  // Every output vertex copies its source vertex.
  ASSERT_EQ(result.source_vertex.size(), result.mesh.vertex_count());
  for (std::size_t v = 0; v < result.mesh.vertex_count(); ++v) {
    EXPECT_EQ(result.mesh.positions[v], box.positions[result.source_vertex[v]]);
  }
  // 8 corners in 3 charts, 12 edges × 5 inner grid vertices in 2, the rest in 1.
  EXPECT_EQ(result.mesh.vertex_count(), box.vertex_count() + 8u * 2u + 12u * 5u);
}

TEST(Unwrap, SmoothOpenPatchStaysOneChartWithoutSplits) {
  const BakeMesh patch = test::make_height_field(12);
  const UnwrapResult result = unwrap_and_rebake(patch, patch, kFlatColour, {}, {});
  EXPECT_EQ(result.chart_count, 1u);
  EXPECT_EQ(result.mesh.vertex_count(), patch.vertex_count());
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 512), 0u);
  // A flat colour re-bakes to itself (sRGB-encoded factor) everywhere.
  const glm::vec4 expected = sample_base_color(kFlatColour[0], {}, glm::vec2(0.0f));
  for (std::size_t i = 0; i < result.texture.rgba8.size(); i += 4) {
    ASSERT_NEAR(result.texture.rgba8[i] / 255.0f, expected.r, 1.0f / 255.0f);
    ASSERT_NEAR(result.texture.rgba8[i + 2] / 255.0f, expected.b, 1.0f / 255.0f);
  }
}

// A smooth patch larger than one chart may be is flattened in pieces of at most that size, and the
// pieces are not merged back past it: the unwrap's time stays linear in the mesh.
TEST(Unwrap, ChartsLargerThanTheSizeBoundAreFlattenedInPieces) {
  const std::size_t bound = ParameterizeLimits{}.max_chart_triangles;
  int n = 1;
  while (2u * static_cast<std::size_t>(n) * static_cast<std::size_t>(n) <= bound) ++n;
  const BakeMesh patch = test::make_height_field(n);  // one smooth chart without the bound
  UnwrapOptions options;
  options.keep_original_uvs = false;
  const UnwrapResult result = unwrap_and_rebake(patch, patch, kFlatColour, {}, options);
  EXPECT_GE(result.chart_count, 2u);
  // Charts share no output vertex: connected triangles by shared vertices are the charts.
  std::vector<std::uint32_t> parent(result.mesh.vertex_count());
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (std::size_t t = 0; t < result.mesh.triangle_count(); ++t) {
    for (std::size_t k = 1; k < 3; ++k)
      parent[find(result.mesh.indices[3 * t + k])] = find(result.mesh.indices[3 * t]);
  }
  std::map<std::uint32_t, std::size_t> triangles_of_chart;
  for (std::size_t t = 0; t < result.mesh.triangle_count(); ++t)
    ++triangles_of_chart[find(result.mesh.indices[3 * t])];
  EXPECT_EQ(triangles_of_chart.size(), result.chart_count);
  for (const auto& [root, triangles] : triangles_of_chart) EXPECT_LE(triangles, bound);
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 512), 0u);
}

// An open tube (a sleeve: two boundary loops, not a disc) is cut open along one seam instead of being
// halved: one chart, and only the vertices of one seam line (rings + 1) are doubled.
TEST(Unwrap, OpenTubeIsCutAlongOneSeam) {
  constexpr int kSegments = 16, kRings = 6;
  BakeMesh tube;
  for (int r = 0; r <= kRings; ++r) {
    for (int k = 0; k < kSegments; ++k) {
      const float a = 2.0f * 3.14159265f * float(k) / float(kSegments);
      const glm::vec3 n(std::cos(a), 0.0f, std::sin(a));
      test::add_vertex(tube, n * 0.2f + glm::vec3(0.0f, 0.15f * float(r), 0.0f), n, glm::vec2(0.0f), 0);
    }
  }
  for (int r = 0; r < kRings; ++r) {
    for (int k = 0; k < kSegments; ++k) {
      const auto i0 = static_cast<std::uint32_t>(r * kSegments + k);
      const auto i1 = static_cast<std::uint32_t>(r * kSegments + (k + 1) % kSegments);
      test::add_triangle(tube, i0, i1 + kSegments, i1);
      test::add_triangle(tube, i0, i0 + kSegments, i1 + kSegments);
    }
  }
  UnwrapOptions reunwrap;
  reunwrap.keep_original_uvs = false;  // the re-unwrap itself (the tube has no UVs to keep)
  const UnwrapResult result = unwrap_and_rebake(tube, tube, kFlatColour, {}, reunwrap);
  EXPECT_EQ(result.chart_count, 1u);
  EXPECT_EQ(result.mesh.vertex_count(), tube.vertex_count() + kRings + 1u);
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 512), 0u);
}

// Between charts the atlas takes the nearest chart's colour, not a mean: with red and blue faces every
// texel is red or blue, so the mip chain built from it never mixes in a third colour at chart edges.
TEST(Unwrap, AtlasBackgroundTakesTheNearestChartColour) {
  BakeMesh box = test::make_grid_box(2);
  for (std::size_t t = 0; t < box.triangle_count(); ++t) box.triangle_material[t] = (t / 8) % 2 ? 1 : 0;
  const std::vector<BakeMaterial> materials = {{"red", glm::vec4(1.0f, 0.0f, 0.0f, 1.0f), -1, false},
                                               {"blue", glm::vec4(0.0f, 0.0f, 1.0f, 1.0f), -1, false}};
  const UnwrapResult result = unwrap_and_rebake(box, box, materials, {}, {});
  ASSERT_GT(result.chart_count, 1u);
  std::size_t red = 0, blue = 0;
  for (std::size_t i = 0; i < result.texture.rgba8.size(); i += 4) {
    const std::uint8_t* t = &result.texture.rgba8[i];
    const bool is_red = t[0] == 255 && t[2] == 0, is_blue = t[0] == 0 && t[2] == 255;
    ASSERT_TRUE(is_red || is_blue) << "texel " << i / 4 << ": " << int(t[0]) << " " << int(t[1]) << " "
                                   << int(t[2]);
    red += is_red, blue += is_blue;
  }
  EXPECT_GT(red, 0u);
  EXPECT_GT(blue, 0u);
}

// The re-bake reads a texture as its glTF sampler addresses it: a texture of two red then two blue
// texels, read at u = 1.3 (repeat: red, clamp: the blue edge) and u = 1.8 (mirrored: 0.2, red).
TEST(Unwrap, TheRebakeAddressesTexturesAsTheirSamplers) {
  anim::Texture halves{"halves", 4, 1, {}};
  for (int i = 0; i < 4; ++i)
    halves.rgba8.insert(halves.rgba8.end(), {static_cast<std::uint8_t>(i < 2 ? 255 : 0), 0,
                                             static_cast<std::uint8_t>(i < 2 ? 0 : 255), 255});
  const std::vector<anim::Texture> textures = {halves};
  BakeMaterial m{"m", glm::vec4(1.0f), 0, false};
  const auto red = [&](float u) { return sample_base_color(m, textures, glm::vec2(u, 0.5f)).r > 0.9f; };
  const auto blue = [&](float u) { return sample_base_color(m, textures, glm::vec2(u, 0.5f)).b > 0.9f; };
  EXPECT_TRUE(red(1.3f));
  EXPECT_TRUE(blue(1.8f));
  m.wrap = {UvWrap::kClampToEdge, UvWrap::kClampToEdge};
  EXPECT_TRUE(blue(1.3f));
  EXPECT_TRUE(red(-0.5f));
  m.wrap = {UvWrap::kMirroredRepeat, UvWrap::kRepeat};
  EXPECT_TRUE(red(1.8f));
  EXPECT_TRUE(blue(1.3f));
}

TEST(Unwrap, TexturedHumanoidRebakesTheOriginalColoursWithoutOverlap) {
  const BakeMesh original = test::make_capsule_humanoid();
  const WeldResult welded = weld(original);
  ASSERT_LT(welded.mesh.vertex_count(), original.vertex_count());
  const std::vector<anim::Texture> textures = {test::make_smooth_texture(64)};
  const std::vector<BakeMaterial> materials = {{"skin", glm::vec4(1.0f, 0.9f, 0.8f, 1.0f), 0, false}};
  const UnwrapResult result = unwrap_and_rebake(welded.mesh, original, materials, textures, {});
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 1024), 0u);
  EXPECT_GE(result.chart_count, 6u);  // six closed capsules, each cut at least once
  const EdgeSplit split = classify_edges(welded.mesh, result.mesh, 70.0f);
  EXPECT_EQ(split.sharp_joined, 0u);
  // Closed capsules need cuts: a few vertices more than welded, never many.
  std::cout << "capsule humanoid: " << original.vertex_count() << " vertices, " << welded.mesh.vertex_count()
            << " welded, " << result.mesh.vertex_count() << " unwrapped in " << result.chart_count
            << " charts, atlas " << result.texture.width << "x" << result.texture.height << "\n";
  EXPECT_LT(result.mesh.vertex_count(), welded.mesh.vertex_count() * 3 / 2);
  // The atlas keeps the original's texel density.
  const float density = texel_density(original, materials, textures);
  EXPECT_NEAR(result.texels_per_unit, density, 1e-3f * density);
  // Colours at triangle centres match the original's within a few levels.
  float worst = 0.0f;
  for (std::size_t t = 0; t < original.triangle_count(); ++t) {
    glm::vec2 source(0.0f), target(0.0f);
    for (std::size_t k = 0; k < 3; ++k) {
      source += original.uvs[original.indices[3 * t + k]] / 3.0f;
      target += result.mesh.uvs[result.mesh.indices[3 * t + k]] / 3.0f;
    }
    const glm::vec4 expected = sample_base_color(materials[0], textures, source);
    const glm::vec4 baked = sample_texture(result.texture, target);
    const float e = glm::length(glm::vec3(expected - baked));
    worst = std::max(worst, e);
  }
  EXPECT_LT(worst, 0.06f);
}

// With the default options charts may also join across sharp edges where the union still flattens:
// the box keeps its shared crease vertices in fewer charts, seams stay off smooth edges, nothing
// overlaps and the flat colour re-bakes everywhere.
TEST(Unwrap, BoxChartsMergeAcrossCreasesWhenTheUnionFlattens) {
  const BakeMesh box = test::make_grid_box(6);
  UnwrapOptions strict;
  strict.join_sharp_edges = false;
  strict.keep_original_uvs = false;  // the re-unwrap itself (the box has no UVs to keep)
  UnwrapOptions merging;
  merging.keep_original_uvs = false;
  const UnwrapResult separate = unwrap_and_rebake(box, box, kFlatColour, {}, strict);
  const UnwrapResult merged = unwrap_and_rebake(box, box, kFlatColour, {}, merging);
  EXPECT_LT(merged.chart_count, separate.chart_count);
  EXPECT_LT(merged.mesh.vertex_count(), separate.mesh.vertex_count());
  EXPECT_GT(merged.mesh.vertex_count(), box.vertex_count());  // a closed box needs some seam
  expect_uvs_in_unit_square(merged.mesh);
  EXPECT_EQ(overlapping_samples(merged.mesh, 512), 0u);
  const EdgeSplit split = classify_edges(box, merged.mesh, 70.0f);
  EXPECT_EQ(split.smooth_split, 0u);
  EXPECT_GT(split.sharp_joined, 0u);
  const glm::vec4 expected = sample_base_color(kFlatColour[0], {}, glm::vec2(0.0f));
  for (std::size_t i = 0; i < merged.texture.rgba8.size(); i += 4) {
    ASSERT_NEAR(merged.texture.rgba8[i] / 255.0f, expected.r, 1.0f / 255.0f);
  }
}

// A crown: twelve congruent triangles around one vertex with 60° apex angles (720° in all, a saddle
// no conformal map can lay flat without wrapping). LSCM alone is refused by the checks; Tutte's
// embedding on a circle flattens it injectively: every triangle keeps its orientation, the centre's
// angles sum to 360° and equal 3D triangles get equal UV areas.
TEST(Unwrap, TutteFallbackFlattensASaddleLscmCannot) {
  BakeMesh crown;
  test::add_vertex(crown, glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 1.0f), glm::vec2(0.0f), 0);
  constexpr int kRim = 12;
  const float h = std::sqrt((std::cos(std::numbers::pi_v<float> / 6.0f) - 0.5f) / 1.5f);  // 60° apex
  for (int k = 0; k < kRim; ++k) {
    const float a = 2.0f * std::numbers::pi_v<float> * float(k) / float(kRim);
    test::add_vertex(crown, glm::vec3(std::cos(a), std::sin(a), k % 2 ? h : -h), glm::vec3(0.0f, 0.0f, 1.0f),
                     glm::vec2(0.0f), 0);
  }
  for (int k = 0; k < kRim; ++k)
    test::add_triangle(crown, 0, static_cast<std::uint32_t>(1 + k),
                       static_cast<std::uint32_t>(1 + (k + 1) % kRim));
  {
    const glm::vec3 a = crown.positions[1] - crown.positions[0], b = crown.positions[2] - crown.positions[0];
    ASSERT_NEAR(std::acos(glm::dot(a, b) / (glm::length(a) * glm::length(b))),
                std::numbers::pi_v<float> / 3.0f, 1e-4f);
  }
  const SmoothAdjacency adjacency = smooth_adjacency(crown, 180.0f);
  std::vector<std::uint32_t> triangles(kRim);
  std::iota(triangles.begin(), triangles.end(), 0u);
  const std::vector<std::uint32_t> chart_of(kRim, 0);
  const ChartMesh chart = make_chart_mesh(crown, adjacency, chart_of, 0, triangles);
  ASSERT_EQ(euler_characteristic(chart), 1);
  ParameterizeLimits lscm_only;
  lscm_only.tutte_fallback = false;
  EXPECT_FALSE(parameterize_chart(crown, chart, lscm_only).has_value());
  const std::optional<std::vector<glm::vec2>> uv = parameterize_chart(crown, chart, {});
  ASSERT_TRUE(uv.has_value());
  double centre_angle = 0.0, min_area = 1e30, max_area = 0.0;
  for (std::size_t t = 0; t < chart.indices.size() / 3; ++t) {
    const std::uint32_t* f = &chart.indices[3 * t];
    const glm::vec2 p0 = (*uv)[f[0]], p1 = (*uv)[f[1]], p2 = (*uv)[f[2]];
    const double area = 0.5 * double(edge_fn(p0, p1, p2));
    min_area = std::min(min_area, area);
    max_area = std::max(max_area, area);
    const glm::vec2 e1 = p1 - p0, e2 = p2 - p0;  // corner 0 is the centre
    centre_angle += std::atan2(double(e1.x * e2.y - e1.y * e2.x), double(glm::dot(e1, e2)));
  }
  EXPECT_GT(min_area, 0.0);
  EXPECT_NEAR(max_area / min_area, 1.0, 1e-3);
  EXPECT_NEAR(centre_angle, 2.0 * std::numbers::pi, 1e-6);
}

// Merging: a smooth patch cut into four quadrant charts (each flattened alone) merges back into one
// chart, and the seam vertices the quadrants doubled are gone.
TEST(Unwrap, MergingAdjacentChartsRemovesTheirSeamVertices) {
  constexpr int kN = 12;
  const BakeMesh patch = test::make_height_field(kN);
  const SmoothAdjacency adjacency = smooth_adjacency(patch, 70.0f);
  std::vector<std::uint32_t> chart_of(patch.triangle_count());
  std::vector<std::vector<std::uint32_t>> quadrants(4);
  for (std::uint32_t t = 0; t < patch.triangle_count(); ++t) {
    const std::uint32_t cell = t / 2, i = cell % kN, j = cell / kN;
    chart_of[t] = (i < kN / 2 ? 0u : 1u) + (j < kN / 2 ? 0u : 2u);
    quadrants[chart_of[t]].push_back(t);
  }
  std::vector<FlatChart> charts;
  std::size_t before = 0;
  for (std::uint32_t c = 0; c < 4; ++c) {
    ChartMesh mesh = make_chart_mesh(patch, adjacency, chart_of, c, quadrants[c]);
    std::optional<std::vector<glm::vec2>> uv = parameterize_chart(patch, mesh, {});
    ASSERT_TRUE(uv.has_value());
    before += chart_output_vertices(mesh, patch.indices);
    charts.push_back({std::move(mesh), std::move(*uv)});
  }
  // Two seams across the patch, kN + 1 vertices each doubled; the centre is in four charts (one copy
  // more than the two seams count).
  EXPECT_EQ(before, patch.vertex_count() + 2u * (kN + 1u) + 1u);
  EXPECT_EQ(merge_charts(patch, patch.indices, adjacency, charts, {}), 3u);
  ASSERT_EQ(charts.size(), 1u);
  EXPECT_EQ(chart_output_vertices(charts[0].mesh, patch.indices), patch.vertex_count());
  EXPECT_EQ(charts[0].mesh.triangles.size(), patch.triangle_count());
}

// A faceted fan (flat-shaded: every triangle its own rim vertices, so the input shares no edge) around
// one shared centre: the charts meet only at that vertex. Built on the positions, they merge into one
// chart, so the centre is not doubled and the output has exactly the input's vertices.
TEST(Unwrap, FacetedFanKeepsItsSharedCentreInOneChart) {
  BakeMesh fan;
  test::add_vertex(fan, glm::vec3(0.0f, 0.0f, 0.3f), glm::vec3(0.0f, 0.0f, 1.0f), glm::vec2(0.0f), 0);
  constexpr int kRim = 8;
  for (int k = 0; k < kRim; ++k) {
    const float a0 = 2.0f * std::numbers::pi_v<float> * float(k) / float(kRim);
    const float a1 = 2.0f * std::numbers::pi_v<float> * float(k + 1) / float(kRim);
    const glm::vec3 p0(std::cos(a0), std::sin(a0), 0.0f), p1(std::cos(a1), std::sin(a1), 0.0f);
    const glm::vec3 n = glm::normalize(glm::cross(p0 - fan.positions[0], p1 - fan.positions[0]));
    const auto base = static_cast<std::uint32_t>(fan.vertex_count());
    test::add_vertex(fan, p0, n, glm::vec2(0.0f), 0);
    test::add_vertex(fan, p1, n, glm::vec2(0.0f), 0);
    test::add_triangle(fan, 0, base, base + 1);
  }
  UnwrapOptions no_merge;
  no_merge.merge_charts = false;
  no_merge.keep_original_uvs = false;  // the re-unwrap itself
  UnwrapOptions merging;
  merging.keep_original_uvs = false;
  const UnwrapResult separate = unwrap_and_rebake(fan, fan, kFlatColour, {}, no_merge);
  EXPECT_EQ(separate.mesh.vertex_count(), fan.vertex_count() + kRim - 1u);  // the centre once per facet
  const UnwrapResult merged = unwrap_and_rebake(fan, fan, kFlatColour, {}, merging);
  EXPECT_EQ(merged.chart_count, 1u);
  EXPECT_EQ(merged.mesh.vertex_count(), fan.vertex_count());
  expect_uvs_in_unit_square(merged.mesh);
  EXPECT_EQ(overlapping_samples(merged.mesh, 512), 0u);
  // Rim copies with different normals share a UV (one position, one chart point).
  for (std::size_t a = 0; a < merged.mesh.vertex_count(); ++a) {
    for (std::size_t b = a + 1; b < merged.mesh.vertex_count(); ++b) {
      if (merged.mesh.positions[a] == merged.mesh.positions[b]) {
        EXPECT_EQ(merged.mesh.uvs[a], merged.mesh.uvs[b]);
      }
    }
  }
}

// LOD0 vertices after the re-unwrap on a real faceted low-poly model: at most 1.10 × welded and below
// the original (the acceptance figure; the Fox was 1.17 with seams on every facet border).
TEST(Unwrap, FoxLod0StaysWithinATenthOfTheWeldedVertices) {
  const BakeSource src = import_for_bake(load_shared_model("Fox.glb"), "Fox.glb");
  const WeldResult welded = weld(src.mesh);
  const UnwrapResult result = unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, {});
  std::cout << "Fox: " << src.mesh.vertex_count() << " original, " << welded.mesh.vertex_count()
            << " welded, " << result.mesh.vertex_count() << " LOD0 in " << result.chart_count << " charts\n";
  EXPECT_LE(double(result.mesh.vertex_count()), 1.10 * double(welded.mesh.vertex_count()));
  EXPECT_LT(result.mesh.vertex_count(), src.mesh.vertex_count());
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 2048), 0u);
}

// The same figure on CesiumMan, whose whole-body chart flattens only once the relaxation expands the
// triangles that ARAP alone collapses (it was 2,572 LOD0 for 2,338 welded, 1.1001, before that).
TEST(Unwrap, CesiumManLod0StaysWithinATenthOfTheWeldedVertices) {
  const BakeSource src = import_for_bake(load_shared_model("cesium_man.gltf"), "cesium_man.gltf");
  const WeldResult welded = weld(src.mesh);
  const UnwrapResult result = unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, {});
  std::cout << "CesiumMan: " << src.mesh.vertex_count() << " original, " << welded.mesh.vertex_count()
            << " welded, " << result.mesh.vertex_count() << " LOD0 in " << result.chart_count << " charts\n";
  EXPECT_LE(double(result.mesh.vertex_count()), 1.10 * double(welded.mesh.vertex_count()));
  EXPECT_LT(result.mesh.vertex_count(), src.mesh.vertex_count());
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 2048), 0u);
}

TEST(Unwrap, RejectsMismatchedMeshes) {
  const BakeMesh box = test::make_grid_box(2);
  const BakeMesh other = test::make_grid_box(3);
  EXPECT_THROW(unwrap_and_rebake(box, other, kFlatColour, {}, {}), Error);
  UnwrapOptions bad;
  bad.seam_angle_deg = -1.0f;
  EXPECT_THROW(unwrap_and_rebake(box, box, kFlatColour, {}, bad), Error);
}

// A smooth closed UV sphere (rings of `segments` vertices between two poles).
BakeMesh make_sphere(int rings, int segments) {
  BakeMesh sphere;
  const auto add = [&](glm::vec3 n) { test::add_vertex(sphere, 0.3f * n, n, glm::vec2(0.0f), 0); };
  add(glm::vec3(0.0f, -1.0f, 0.0f));
  for (int r = 1; r < rings; ++r) {
    const float lat = std::numbers::pi_v<float> * (float(r) / float(rings) - 0.5f);
    for (int k = 0; k < segments; ++k) {
      const float lon = 2.0f * std::numbers::pi_v<float> * float(k) / float(segments);
      add(glm::vec3(std::cos(lat) * std::cos(lon), std::sin(lat), std::cos(lat) * std::sin(lon)));
    }
  }
  add(glm::vec3(0.0f, 1.0f, 0.0f));
  const auto ring = [&](int r, int k) {
    return static_cast<std::uint32_t>(1 + (r - 1) * segments + (k % segments));
  };
  const auto top = static_cast<std::uint32_t>(sphere.vertex_count() - 1);
  for (int k = 0; k < segments; ++k) {
    test::add_triangle(sphere, 0, ring(1, k + 1), ring(1, k));
    test::add_triangle(sphere, top, ring(rings - 1, k), ring(rings - 1, k + 1));
    for (int r = 1; r + 1 < rings; ++r) {
      test::add_triangle(sphere, ring(r, k), ring(r, k + 1), ring(r + 1, k + 1));
      test::add_triangle(sphere, ring(r, k), ring(r + 1, k + 1), ring(r + 1, k));
    }
  }
  return sphere;
}

// The shortest-path cuts themselves: a sphere opened tip to tip is one disc whose seam is a single
// path (pole to pole: kRings edges, kRings - 1 copied vertices); a sphere with two holes gets them
// joined by one path, never a spanning tree's many edges.
TEST(Unwrap, ShortestPathCutsOpenClosedChartsAndJoinHoles) {
  constexpr int kRings = 10, kSegments = 16;
  const BakeMesh sphere = make_sphere(kRings, kSegments);
  SmoothAdjacency adjacency = smooth_adjacency(sphere, 70.0f);
  std::vector<std::uint32_t> all(sphere.triangle_count());
  std::iota(all.begin(), all.end(), 0u);
  const std::vector<std::uint32_t> chart_of(sphere.triangle_count(), 0);
  ChartMesh chart = make_chart_mesh(sphere, adjacency, chart_of, 0, all);
  ASSERT_EQ(euler_characteristic(chart), 2);
  ASSERT_TRUE(cut_closed_chart(sphere, adjacency, chart));
  chart = make_chart_mesh(sphere, adjacency, chart_of, 0, all);
  EXPECT_EQ(euler_characteristic(chart), 1);
  EXPECT_EQ(chart.source_vertex.size(), sphere.vertex_count() + kRings - 1u);
  EXPECT_FALSE(cut_closed_chart(sphere, adjacency, chart));  // open now

  // Two holes: the polar fans removed (three boundary loops with the cut above undone).
  SmoothAdjacency holed = smooth_adjacency(sphere, 70.0f);
  std::vector<std::uint32_t> band;
  for (std::uint32_t t = 0; t < sphere.triangle_count(); ++t) {
    const std::uint32_t* f = &sphere.indices[3 * t];
    const auto top = static_cast<std::uint32_t>(sphere.vertex_count() - 1);
    if (f[0] != 0 && f[0] != top) band.push_back(t);
  }
  std::vector<std::uint32_t> band_of(sphere.triangle_count(), 1);
  for (const std::uint32_t t : band) band_of[t] = 0;
  ChartMesh tube = make_chart_mesh(sphere, holed, band_of, 0, band);
  ASSERT_EQ(euler_characteristic(tube), 0);
  ASSERT_TRUE(join_boundary_loops(sphere, holed, tube));
  tube = make_chart_mesh(sphere, holed, band_of, 0, band);
  EXPECT_EQ(euler_characteristic(tube), 1);
  // One path across the band of kRings - 2 edges: its kRings - 1 vertices copied once.
  EXPECT_EQ(tube.source_vertex.size(), (kRings - 1u) * kSegments + kRings - 1u);
  const std::optional<std::vector<glm::vec2>> uv = parameterize_chart(sphere, tube, {});
  EXPECT_TRUE(uv.has_value());
}

// A tube closed by a cap at one end (a cup: a disc, but flattening it as one squeezes the cap into
// the middle of an exponentially growing annulus). LSCM and Tutte's embedding alone exceed the
// area-distortion limit; the ARAP relaxation that follows brings it within the limit without any
// seam, and every triangle keeps its orientation.
TEST(Unwrap, ArapRelaxationFlattensACappedTubeWithoutASeam) {
  constexpr int kSegments = 16, kRings = 4;
  BakeMesh cup;
  const float radius = 0.1f, ring_step = 0.06f;
  test::add_vertex(cup, glm::vec3(0.0f), glm::vec3(0.0f, -1.0f, 0.0f), glm::vec2(0.0f), 0);
  for (int r = 0; r <= kRings; ++r) {
    for (int k = 0; k < kSegments; ++k) {
      const float a = 2.0f * std::numbers::pi_v<float> * float(k) / float(kSegments);
      const glm::vec3 n(std::cos(a), 0.0f, std::sin(a));
      test::add_vertex(cup, n * radius + glm::vec3(0.0f, ring_step * float(r), 0.0f), n, glm::vec2(0.0f), 0);
    }
  }
  const auto at = [](int r, int k) { return static_cast<std::uint32_t>(1 + r * kSegments + k % kSegments); };
  for (int k = 0; k < kSegments; ++k) {
    test::add_triangle(cup, 0, at(0, k), at(0, k + 1));
    for (int r = 0; r < kRings; ++r) {
      test::add_triangle(cup, at(r, k), at(r + 1, k + 1), at(r, k + 1));
      test::add_triangle(cup, at(r, k), at(r + 1, k), at(r + 1, k + 1));
    }
  }
  const SmoothAdjacency adjacency = smooth_adjacency(cup, 180.0f);
  std::vector<std::uint32_t> triangles(cup.triangle_count());
  std::iota(triangles.begin(), triangles.end(), 0u);
  const std::vector<std::uint32_t> chart_of(cup.triangle_count(), 0);
  const ChartMesh chart = make_chart_mesh(cup, adjacency, chart_of, 0, triangles);
  ASSERT_EQ(euler_characteristic(chart), 1);
  ASSERT_EQ(chart.source_vertex.size(), cup.vertex_count());
  ParameterizeLimits no_relaxation;
  no_relaxation.arap_iterations = 0;
  std::vector<std::uint32_t> distorted;
  EXPECT_FALSE(parameterize_chart(cup, chart, no_relaxation, &distorted).has_value());
  EXPECT_FALSE(distorted.empty());
  const std::optional<std::vector<glm::vec2>> uv = parameterize_chart(cup, chart, {});
  ASSERT_TRUE(uv.has_value());
  double min_area = 1e30, total = 0.0;
  for (std::size_t t = 0; t < chart.indices.size() / 3; ++t) {
    const std::uint32_t* f = &chart.indices[3 * t];
    const double area = 0.5 * double(edge_fn((*uv)[f[0]], (*uv)[f[1]], (*uv)[f[2]]));
    min_area = std::min(min_area, area);
    total += area;
  }
  EXPECT_GT(min_area * total, 0.0);  // all one orientation (either sign is a valid map)
}

// The built-in enemy's LOD0 after the re-unwrap: at most 1.10 × welded and below the original (1.112
// when closed charts were halved by planes and no map was relaxed).
TEST(Unwrap, EnemyLod0StaysWithinATenthOfTheWeldedVertices) {
  const BakeSource src = import_for_bake(make_enemy(), "enemy");
  const WeldResult welded = weld(src.mesh);
  const UnwrapResult result = unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, {});
  std::cout << "enemy: " << src.mesh.vertex_count() << " original, " << welded.mesh.vertex_count()
            << " welded, " << result.mesh.vertex_count() << " LOD0 in " << result.chart_count << " charts\n";
  EXPECT_LE(double(result.mesh.vertex_count()), 1.10 * double(welded.mesh.vertex_count()));
  EXPECT_LT(result.mesh.vertex_count(), src.mesh.vertex_count());
  expect_uvs_in_unit_square(result.mesh);
  EXPECT_EQ(overlapping_samples(result.mesh, 2048), 0u);
}

}  // namespace
}  // namespace myriad::crowd
