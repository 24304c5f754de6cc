// The generated plants and impostors: levels with strictly fewer triangles, well-formed meshes whose
// surfaces name textures that exist, card textures that need the alpha test, colours that read as
// bark and foliage, every level inside LOD0's bounds, and impostor views that show LOD0 from their
// quad's side. The impostor reference is independent of the baker's rasterizer: rays cast from the
// quad's texels (placed through the quad's own corners and texture coordinates) against LOD0.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_generated.hpp"
#include "myriad/vegetation/plant/plant_generated_textures.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"
#include "myriad/vegetation/plant/plant_impostor.hpp"

namespace myriad::vegetation {
namespace {

constexpr PlantKind kKinds[] = {PlantKind::kTree, PlantKind::kBush, PlantKind::kGrass};
const char* name_of(PlantKind k) {
  return k == PlantKind::kTree ? "tree" : k == PlantKind::kBush ? "bush" : "grass";
}

TEST(GeneratedPlant, EachLevelHasFewerTrianglesThanTheOneAbove) {
  for (const PlantKind kind : kKinds) {
    const PlantModel& m = *generated_plant(kind);
    EXPECT_GT(m.lods[0].triangle_count(), m.lods[1].triangle_count()) << name_of(kind);
    EXPECT_GT(m.lods[1].triangle_count(), m.lods[2].triangle_count()) << name_of(kind);
    EXPECT_GT(m.lods[3].triangle_count(), 0u) << name_of(kind);
    EXPECT_LE(m.lods[3].triangle_count(), m.lods[2].triangle_count()) << name_of(kind);
  }
}

TEST(GeneratedPlant, MeshesAreWellFormedAndNameTexturesThatExist) {
  for (const PlantKind kind : kKinds) {
    const PlantModel& model = *generated_plant(kind);
    for (const PlantTexture& t : model.textures) {
      EXPECT_EQ(t.rgba8.size(), std::size_t(t.width) * t.height * 4) << t.name;
      EXPECT_GT(t.width, 0u) << t.name;
    }
    std::set<std::uint16_t> used;
    for (std::size_t l = 0; l < kPlantLodCount; ++l) {
      const PlantMesh& m = model.lods[l];
      SCOPED_TRACE(std::string(name_of(kind)) + " LOD" + std::to_string(l));
      ASSERT_EQ(m.normals.size(), m.positions.size());
      ASSERT_EQ(m.uvs.size(), m.positions.size());
      ASSERT_EQ(m.surfaces.size(), m.positions.size());
      ASSERT_EQ(m.indices.size() % 3, 0u);
      for (const std::uint32_t i : m.indices) ASSERT_LT(i, m.positions.size());
      for (const glm::vec3& n : m.normals) EXPECT_NEAR(glm::length(n), 1.0f, 1e-4f);
      for (const PlantSurface& s : m.surfaces) {
        if (s.texture == kNoPlantTexture) continue;
        ASSERT_LT(s.texture, model.textures.size());
        used.insert(s.texture);
      }
    }
    EXPECT_EQ(used.size(), model.textures.size()) << name_of(kind) << ": a texture nothing samples";
  }
}

TEST(GeneratedPlant, CardTexturesHaveGapsForTheAlphaTest) {
  for (const PlantKind kind : kKinds) {
    const PlantModel& model = *generated_plant(kind);
    std::set<std::uint16_t> tested;
    for (const PlantSurface& s : model.lods[0].surfaces)
      if (s.alpha_cutoff > 0 && s.texture != kNoPlantTexture) tested.insert(s.texture);
    ASSERT_FALSE(tested.empty()) << name_of(kind) << " has no alpha-tested cards";
    for (const std::uint16_t t : tested) {
      const double share = alpha_coverage(model.textures[t].rgba8, kCoverageCutoff);
      EXPECT_GT(share, 0.15) << model.textures[t].name;  // something to see
      EXPECT_LT(share, 0.85) << model.textures[t].name;  // and gaps to see through
    }
  }
}

// Mean colour of the texels that pass the alpha test, 0..255.
glm::vec3 mean_color(const PlantTexture& t) {
  glm::dvec3 sum(0.0);
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < t.rgba8.size(); i += 4)
    if (t.rgba8[i + 3] >= kCoverageCutoff) sum += glm::dvec3(t.rgba8[i], t.rgba8[i + 1], t.rgba8[i + 2]), ++n;
  return n ? glm::vec3(sum / double(n)) : glm::vec3(0.0f);
}

TEST(GeneratedPlant, TexturesReadAsBarkAndFoliage) {
  const glm::vec3 bark = mean_color(make_bark_texture()), needles = mean_color(make_needle_texture());
  const glm::vec3 leaves = mean_color(make_leaf_texture()), grass = mean_color(make_grass_texture());
  EXPECT_TRUE(bark.r > bark.g && bark.g > bark.b && bark.r < 140.0f) << "bark: dull brown";
  EXPECT_TRUE(needles.g > needles.r && needles.g > needles.b && needles.g < 100.0f) << "needles: dark green";
  EXPECT_TRUE(leaves.g > leaves.r + 20.0f && leaves.r > leaves.b && leaves.g > needles.g)
      << "leaves: mid green";
  EXPECT_TRUE(grass.g > grass.r && grass.r > 0.75f * grass.g && grass.r > grass.b + 40.0f)
      << "grass: yellow-green";
  // The same every time.
  EXPECT_EQ(make_needle_texture().rgba8, make_needle_texture().rgba8);
}

TEST(GeneratedPlant, EveryLevelLiesInsideLod0) {
  for (const PlantKind kind : kKinds) {
    const PlantModel& model = *generated_plant(kind);
    const Aabb lod0 = model.lods[0].bounds();
    const glm::vec3 slack = (lod0.max - lod0.min) * 1e-4f + 1e-5f;
    EXPECT_NEAR(lod0.min.y, 0.0f, 0.01f) << name_of(kind) << " stands on the ground";
    for (std::size_t l = 1; l < kPlantLodCount; ++l) {
      const Aabb b = model.lods[l].bounds();
      for (int a = 0; a < 3; ++a) {
        EXPECT_GE(b.min[a], lod0.min[a] - slack[a]) << name_of(kind) << " LOD" << l << " axis " << a;
        EXPECT_LE(b.max[a], lod0.max[a] + slack[a]) << name_of(kind) << " LOD" << l << " axis " << a;
      }
    }
  }
}

TEST(GeneratedPlant, TypesWithoutAModelDrawTheGeneratedPlantAndItsTextures) {
  const std::vector<PlantType> types = default_plant_types();
  const PlantArt art = plant_art(types);
  std::size_t textures = 0;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const PlantModel& model = *generated_plant(types[i].kind);
    for (std::size_t l = 0; l < kPlantLodCount; ++l) {
      const PlantMesh& m = art.meshes[i * kPlantLodCount + l];
      ASSERT_EQ(m.triangle_count(), model.lods[l].triangle_count());
      for (std::size_t v = 0; v < m.surfaces.size(); ++v) {
        const std::uint16_t t = model.lods[l].surfaces[v].texture;
        if (t == kNoPlantTexture) continue;
        ASSERT_EQ(m.surfaces[v].texture, textures + t);  // rebased into the field's list
        ASSERT_EQ(art.textures[m.surfaces[v].texture].rgba8, model.textures[t].rgba8);
      }
    }
    textures += model.textures.size();
  }
  EXPECT_EQ(art.textures.size(), textures);
}

// ---- Impostors ----

struct ViewImage {
  std::vector<float> coverage;   // 0..1 a texel
  std::vector<glm::vec3> color;  // 0..255
};

// What the field shows of quad k of `billboard`: its texture, alpha-tested.
ViewImage impostor_image(const PlantModel& model, std::size_t quad) {
  const PlantTexture& t = model.textures[model.lods[3].surfaces[quad * 4].texture];
  ViewImage out;
  for (std::size_t i = 0; i + 3 < t.rgba8.size(); i += 4) {
    out.coverage.push_back(t.rgba8[i + 3] / 255.0f);
    out.color.emplace_back(t.rgba8[i], t.rgba8[i + 1], t.rgba8[i + 2]);
  }
  return out;
}

// LOD0 seen from the front of quad k, on the quad's texture grid, by ray casting: each of 2 x 2 cells
// a texel sends a ray from its centre (placed on the quad's plane through the affine map from the quad's
// corners to their texture coordinates) against the front of the quad, through every triangle, and
// keeps the nearest hit that passes its surface's alpha test.
ViewImage reference_image(const PlantModel& model, std::size_t quad, std::uint32_t size) {
  const PlantMesh& bb = model.lods[3];
  const glm::vec3 p0 = bb.positions[quad * 4], p1 = bb.positions[quad * 4 + 1],
                  p2 = bb.positions[quad * 4 + 2];
  const glm::vec3 toward = glm::normalize(glm::cross(p1 - p0, p2 - p0));
  const glm::vec3 right = glm::normalize(glm::cross(kWorldUp, toward));
  // (s, y, 1) = from_uv * (u, v, 1), from three corners.
  const glm::mat3 plane(glm::vec3(glm::dot(p0, right), p0.y, 1.0f),
                        glm::vec3(glm::dot(p1, right), p1.y, 1.0f),
                        glm::vec3(glm::dot(p2, right), p2.y, 1.0f));
  const glm::mat3 uvs(glm::vec3(bb.uvs[quad * 4], 1.0f), glm::vec3(bb.uvs[quad * 4 + 1], 1.0f),
                      glm::vec3(bb.uvs[quad * 4 + 2], 1.0f));
  const glm::mat3 from_uv = plane * glm::inverse(uvs);

  const PlantMesh& m = model.lods[0];
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::set<std::array<std::uint32_t, 3>> seen;  // a card's back triangle covers what its front does
  for (std::size_t t = 0; t < m.indices.size(); t += 3) {
    std::array<std::uint32_t, 3> tri{m.indices[t], m.indices[t + 1], m.indices[t + 2]}, key = tri;
    std::sort(key.begin(), key.end());
    if (seen.insert(key).second) triangles.push_back(tri);
  }
  const auto cast = [&](glm::vec3 origin, glm::vec3& color) {
    float nearest = 1e30f;
    for (const auto& tri : triangles) {
      const glm::vec3 a = m.positions[tri[0]], e1 = m.positions[tri[1]] - a, e2 = m.positions[tri[2]] - a;
      const glm::vec3 pv = glm::cross(-toward, e2);
      const float det = glm::dot(e1, pv);
      if (std::abs(det) < 1e-12f) continue;
      const glm::vec3 tv = origin - a;
      const float u = glm::dot(tv, pv) / det;
      const glm::vec3 qv = glm::cross(tv, e1);
      const float v = glm::dot(-toward, qv) / det, t = glm::dot(e2, qv) / det;
      if (u < 0.0f || v < 0.0f || u + v > 1.0f || t >= nearest) continue;
      const PlantSurface& s = m.surfaces[tri[0]];
      glm::vec3 c = glm::vec3(s.color);
      if (s.texture != kNoPlantTexture) {
        const glm::vec2 uv = m.uvs[tri[0]] * (1.0f - u - v) + m.uvs[tri[1]] * u + m.uvs[tri[2]] * v;
        const PlantTexture& tex = model.textures[s.texture];
        const auto wrap = [](float x, std::uint32_t n) {
          const long k = long(std::floor(x * float(n)));
          return std::size_t(((k % long(n)) + long(n)) % long(n));
        };
        const std::uint8_t* px = &tex.rgba8[(wrap(uv.y, tex.height) * tex.width + wrap(uv.x, tex.width)) * 4];
        if (px[3] < s.alpha_cutoff) continue;
        c *= glm::vec3(px[0], px[1], px[2]) / 255.0f;
      }
      nearest = t, color = c;
    }
    return nearest < 1e30f;
  };
  ViewImage out;
  const float far = 1000.0f;  // in front of any plant
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      glm::vec3 sum(0.0f);
      int hit = 0;
      for (std::uint32_t k = 0; k < 4; ++k) {
        const glm::vec2 uv((float(x * 2 + k % 2) + 0.5f) / float(2 * size),
                           (float(y * 2 + k / 2) + 0.5f) / float(2 * size));
        const glm::vec3 sy = from_uv * glm::vec3(uv, 1.0f);
        glm::vec3 color;
        if (cast(right * sy.x + kWorldUp * sy.y + toward * far, color)) sum += color, ++hit;
      }
      out.coverage.push_back(float(hit) / 4.0f);
      out.color.push_back(hit ? sum / float(hit) : glm::vec3(0.0f));
    }
  return out;
}

struct Agreement {
  double iou = 0.0;
  glm::vec3 impostor_mean{0.0f}, reference_mean{0.0f};
};

Agreement compare(const ViewImage& a, const ViewImage& b) {
  std::size_t both = 0, either = 0;
  glm::dvec3 sa(0.0), sb(0.0);
  double wa = 0.0, wb = 0.0;
  for (std::size_t i = 0; i < a.coverage.size(); ++i) {
    const bool ca = a.coverage[i] >= 0.5f, cb = b.coverage[i] >= 0.5f;  // as the alpha test keeps them
    both += ca && cb;
    either += ca || cb;
    sa += glm::dvec3(a.color[i]) * double(a.coverage[i]), wa += double(a.coverage[i]);
    sb += glm::dvec3(b.color[i]) * double(b.coverage[i]), wb += double(b.coverage[i]);
  }
  return {either ? double(both) / double(either) : 0.0, glm::vec3(sa / std::max(wa, 1e-9)),
          glm::vec3(sb / std::max(wb, 1e-9))};
}

// A deliberately lopsided plant: a grey pole, a red box off to +X at the top, a checkered green card
// reaching out to -Z, so a view from the wrong side or mirrored does not match.
PlantModel lopsided_plant() {
  PlantModel p;
  PlantTexture checker{"checker", 16, 16, {}};
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      const bool on = ((x / 4) + (y / 4)) % 2 == 0;
      checker.rgba8.insert(checker.rgba8.end(), {40, 170, 60, std::uint8_t(on ? 255 : 0)});
    }
  p.textures.push_back(checker);
  const auto append = [&](const PlantMesh& part, const PlantSurface& s) {
    const auto base = static_cast<std::uint32_t>(p.lods[0].positions.size());
    for (std::size_t i = 0; i < part.positions.size(); ++i) {
      p.lods[0].positions.push_back(part.positions[i]);
      p.lods[0].normals.push_back(part.normals[i]);
      p.lods[0].uvs.push_back(part.uvs.empty() ? glm::vec2(0.0f) : part.uvs[i]);
      p.lods[0].surfaces.push_back(s);
    }
    for (const std::uint32_t i : part.indices) p.lods[0].indices.push_back(base + i);
  };
  append(make_box_mesh({{-0.1f, 0.0f, -0.1f}, {0.1f, 3.0f, 0.1f}}), {{150, 150, 150}, 0, kNoPlantTexture});
  append(make_box_mesh({{0.1f, 2.0f, -0.3f}, {1.5f, 2.8f, 0.3f}}), {{220, 40, 30}, 0, kNoPlantTexture});
  PlantMesh card;
  card.positions = {{0.0f, 0.5f, 0.0f}, {0.0f, 0.5f, -2.0f}, {0.0f, 1.8f, -2.0f}, {0.0f, 1.8f, 0.0f}};
  card.normals.assign(4, glm::vec3(1.0f, 0.0f, 0.0f));
  card.uvs = {{0.0f, 1.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {0.0f, 0.0f}};
  card.indices = {0, 1, 2, 0, 2, 3};
  append(card, {{255, 255, 255}, 128, 0});
  return p;
}

void expect_views_match_lod0(PlantModel model, const std::string& what) {
  ImpostorOptions o;
  o.size = 64;
  o.name = what;
  const std::size_t first = model.textures.size();
  add_impostor(model, o);
  ASSERT_EQ(model.textures.size(), first + o.views) << what;
  ASSERT_EQ(model.lods[3].triangle_count(), 4u * o.views) << what;
  for (std::size_t q = 0; q < o.views; ++q) {
    EXPECT_EQ(model.lods[3].surfaces[q * 4].texture, first + q) << what;
    EXPECT_EQ(model.lods[3].surfaces[q * 4].alpha_cutoff, kCoverageCutoff) << what;
    const Agreement g = compare(impostor_image(model, q), reference_image(model, q, o.size));
    EXPECT_GE(g.iou, 0.95) << what << " view " << q;
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(g.impostor_mean[c], g.reference_mean[c], 5.0f) << what << " view " << q << " channel " << c;
  }
}

TEST(PlantImpostor, EachViewShowsLod0FromItsQuadsSide) {
  expect_views_match_lod0(lopsided_plant(), "lopsided");
  expect_views_match_lod0(make_sample_fern(), "fern");
  for (const PlantKind kind : kKinds) expect_views_match_lod0(*generated_plant(kind), name_of(kind));
}

// Quads span LOD0 across their view and in height, and stand in the middle of its depth.
TEST(PlantImpostor, QuadsSpanLod0AcrossTheirViewAndStandInItsMiddle) {
  PlantModel model = lopsided_plant();
  add_impostor(model);  // 4 views: quad 0 faces +Z, quad 2 faces +X
  const Aabb lod0 = model.lods[0].bounds();
  const auto quad = [&](std::size_t q) {
    Aabb b;
    for (std::size_t i = 0; i < 4; ++i) b.expand(model.lods[3].positions[q * 4 + i]);
    return b;
  };
  for (std::size_t q = 0; q < 4; ++q) {
    EXPECT_FLOAT_EQ(quad(q).min.y, lod0.min.y) << q;
    EXPECT_FLOAT_EQ(quad(q).max.y, lod0.max.y) << q;
  }
  const float kEps = 1e-5f;
  EXPECT_NEAR(quad(0).min.x, lod0.min.x, kEps);
  EXPECT_NEAR(quad(0).max.x, lod0.max.x, kEps);
  EXPECT_NEAR(quad(0).min.z, lod0.center().z, kEps);
  EXPECT_NEAR(quad(0).max.z, lod0.center().z, kEps);
  EXPECT_NEAR(quad(2).min.z, lod0.min.z, kEps);
  EXPECT_NEAR(quad(2).max.z, lod0.max.z, kEps);
  EXPECT_NEAR(quad(2).min.x, lod0.center().x, kEps);
}

}  // namespace
}  // namespace myriad::vegetation
