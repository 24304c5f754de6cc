// Cards are quads drawn from both sides (the field's pipeline culls back faces) on shared vertices.
// Their normals do not follow the flat card: they bend outwards from the plant's middle, as if the crown
// were one rounded body, so a card shades by where it sits in the crown (lit on the sun's side, darker
// on the far side) and the same from either face, instead of flickering between bright and dark as the
// flat facets turn towards or away from the light.
#include "myriad/vegetation/plant/plant_generated.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/plant/plant_generated_textures.hpp"
#include "myriad/vegetation/plant/plant_impostor.hpp"

namespace myriad::vegetation {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kGoldenAngle = 2.39996323f;
constexpr std::uint8_t kCutoff = kCoverageCutoff;

// The bent normal of a card vertex at p: (p - centre) * scale, lifted by `lift` towards +Y.
struct Bend {
  glm::vec3 centre{0.0f}, scale{1.0f};
  float lift = 0.0f;
  glm::vec3 operator()(glm::vec3 p) const { return glm::normalize((p - centre) * scale + kWorldUp * lift); }
};

void add_vertex(PlantMesh& m, glm::vec3 p, glm::vec3 n, glm::vec2 uv, const PlantSurface& s) {
  m.positions.push_back(p);
  m.normals.push_back(n);
  m.uvs.push_back(uv);
  m.surfaces.push_back(s);
}

// Shrinks corners about their middle until they lie in `box`: a coarser level's wider-spaced cards
// stay inside LOD0's bounds, which the prefab's bounds and the impostor's quads are made from.
void fit_inside(std::array<glm::vec3, 4>& corners, const Aabb& box) {
  const glm::vec3 mid = (corners[0] + corners[1] + corners[2] + corners[3]) * 0.25f;
  float t = 1.0f;
  for (const glm::vec3& c : corners)
    for (int a = 0; a < 3; ++a) {
      if (c[a] > box.max[a] && c[a] > mid[a]) t = std::min(t, (box.max[a] - mid[a]) / (c[a] - mid[a]));
      if (c[a] < box.min[a] && c[a] < mid[a]) t = std::min(t, (box.min[a] - mid[a]) / (c[a] - mid[a]));
    }
  t = std::max(t, 0.0f);
  for (glm::vec3& c : corners) c = mid + (c - mid) * t;
}

// A card: corners counter-clockwise seen from the front, taking texture corners (0,0), (1,0), (1,1),
// (0,1) in that order (u mirrored when asked, for variety).
void card(PlantMesh& m, std::array<glm::vec3, 4> corners, bool mirror, const PlantSurface& s,
          const Bend& bend, const Aabb& box) {
  fit_inside(corners, box);
  static constexpr glm::vec2 kUv[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
  const auto b = static_cast<std::uint32_t>(m.positions.size());
  for (int k = 0; k < 4; ++k)
    add_vertex(m, corners[k], bend(corners[k]), mirror ? glm::vec2(1.0f - kUv[k].x, kUv[k].y) : kUv[k], s);
  // Each triangle followed by its back (the impostor baker skips such a repeat).
  m.indices.insert(m.indices.end(), {b, b + 1, b + 2, b, b + 2, b + 1, b, b + 2, b + 3, b, b + 3, b + 2});
}

// A tapered trunk of `sides` sides from the ground to `height`, open at both ends (the ground and the
// crown hide them); the texture wraps once around and `v_repeat` times up.
void trunk(PlantMesh& m, int sides, float height, float r0, float r1, const PlantSurface& s, float v_repeat) {
  const float slope = (r0 - r1) / height;
  const auto b = static_cast<std::uint32_t>(m.positions.size());
  for (int i = 0; i <= sides; ++i) {  // the seam's vertices twice: u runs 0..1 around
    const float a = 2.0f * kPi * float(i) / float(sides), u = float(i) / float(sides);
    const glm::vec3 d(std::cos(a), 0.0f, -std::sin(a));
    const glm::vec3 n = glm::normalize(d + kWorldUp * slope);
    add_vertex(m, d * r0, n, {u, v_repeat}, s);
    add_vertex(m, d * r1 + kWorldUp * height, n, {u, 0.0f}, s);
  }
  for (std::uint32_t i = 0; i < std::uint32_t(sides); ++i) {
    const std::uint32_t b0 = b + 2 * i, t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;
    m.indices.insert(m.indices.end(), {b0, b1, t1, b0, t1, t0});
  }
}

// ---- Tree: a conifer ----
constexpr float kTreeHeight = 8.0f, kCrownBase = 1.7f, kTopTier = 6.4f, kSpireBase = 6.0f;
constexpr float kCrownRadius = 2.3f;
constexpr std::uint16_t kBark = 0, kNeedles = 1;

struct TreeLevel {
  int tiers, cards, sides, spire;
};
constexpr TreeLevel kTreeLevels[3] = {{8, 8, 6, 2}, {6, 6, 5, 1}, {4, 4, 4, 1}};

PlantMesh tree(const TreeLevel& l, const Aabb& box) {
  PlantMesh m;
  const PlantSurface bark{{255, 255, 255}, 0, kBark}, needles{{255, 255, 255}, kCutoff, kNeedles};
  // The trunk ends inside the upper crown: above that it would only show as a dark line between tiers.
  trunk(m, l.sides, kTreeHeight * 0.7f, 0.22f, 0.05f, bark, 4.0f);
  // The crown as a cone: outwards from the axis, and upwards.
  const Bend bend{{0.0f, 0.0f, 0.0f}, {1.0f / kCrownRadius, 0.0f, 1.0f / kCrownRadius}, 0.55f};
  for (int i = 0; i < l.tiers; ++i) {
    // Tiers from the crown's base to below the spire, narrowing upwards; lower branches droop more.
    const float f = float(i) / float(l.tiers - 1);
    const float y = kCrownBase + (kTopTier - kCrownBase) * f;
    const float radius = kCrownRadius * (1.0f - 0.72f * f), droop = 0.5f - 0.2f * f;
    const float width = std::min(1.1f * radius, 2.3f);
    for (int k = 0; k < l.cards; ++k) {
      const float a = 2.0f * kPi * (float(k) + 0.5f * float(i % 2)) / float(l.cards) + 0.2f * float(i);
      const glm::vec3 dir(std::cos(a), 0.0f, std::sin(a)), side(-std::sin(a), 0.0f, std::cos(a));
      const glm::vec3 root = dir * 0.12f + kWorldUp * y;
      const glm::vec3 tip = dir * radius + kWorldUp * (y - droop * radius);
      const glm::vec3 along = glm::normalize(tip - root);
      // Rolled about the branch, alternately either way: a tier is never seen only edge-on.
      const float roll = (k + i) % 2 ? 0.45f : -0.45f;
      const glm::vec3 across =
          glm::normalize(side * std::cos(roll) + glm::cross(along, side) * std::sin(roll)) * (0.5f * width);
      card(m, {root - across, root + across, tip + across, tip - across}, k % 2 == 1, needles, bend, box);
    }
  }
  // The spire: crossed upright cards, the branch texture's tip at the top.
  for (int k = 0; k < l.spire; ++k) {
    const float a = kPi * 0.5f * float(k) + 0.4f;
    const glm::vec3 across = glm::vec3(std::cos(a), 0.0f, std::sin(a)) * 0.5f;
    const glm::vec3 lo = kWorldUp * kSpireBase, hi = kWorldUp * kTreeHeight;
    card(m, {lo - across, lo + across, hi + across, hi - across}, k == 1, needles, bend, box);
  }
  return m;
}

// ---- Bush: a clump of leaf cards ----
constexpr float kBushRadius = 1.0f, kBushHeight = 1.4f;
constexpr glm::vec3 kBushMiddle{0.0f, 0.62f, 0.0f};

struct BushLevel {
  int cards, stem_sides;
  float size;  // of the tilted cards
};
constexpr BushLevel kBushLevels[3] = {{14, 4, 0.95f}, {8, 3, 1.1f}, {5, 0, 1.3f}};

PlantMesh bush(const BushLevel& l, const Aabb& box) {
  PlantMesh m;
  const PlantSurface leaves{{255, 255, 255}, kCutoff, 0};
  if (l.stem_sides > 0) trunk(m, l.stem_sides, 0.6f, 0.05f, 0.03f, {{88, 66, 44}, 0, kNoPlantTexture}, 1.0f);
  const Bend bend{kBushMiddle - kWorldUp * 0.25f, glm::vec3(1.0f), 0.25f};
  // Two upright crossed cards through the middle give the clump its outline from every side.
  for (int k = 0; k < 2; ++k) {
    const glm::vec3 across =
        (k == 0 ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f)) * kBushRadius;
    const glm::vec3 lo = kWorldUp * 0.02f, hi = kWorldUp * (kBushHeight - 0.1f);
    card(m, {lo - across, lo + across, hi + across, hi - across}, k == 1, leaves, bend, box);
  }
  // The rest on a golden-angle spiral over the clump, facing outwards from high up to a little below
  // the middle, each turned sideways so none is only seen edge-on.
  const int tilted = l.cards - 2;
  for (int j = 0; j < tilted; ++j) {
    const float f = (float(j) + 0.5f) / float(tilted), a = kGoldenAngle * float(j);
    const float up = 0.85f - 1.15f * f, flat = std::sqrt(1.0f - up * up);
    const glm::vec3 out(std::cos(a) * flat, up, std::sin(a) * flat);
    const glm::vec3 mid = kBushMiddle + out * glm::vec3(0.4f, 0.32f, 0.4f);
    const glm::vec3 turn = glm::vec3(-std::sin(a), 0.0f, std::cos(a)) * (j % 2 ? 0.7f : -0.7f);
    const glm::vec3 facing = glm::normalize(out + turn);
    const glm::vec3 u =
        glm::normalize(glm::cross(std::abs(facing.y) > 0.9f ? glm::vec3(1, 0, 0) : kWorldUp, facing));
    const glm::vec3 v = glm::cross(facing, u);
    const float spin = 1.3f * float(j);  // each card's leaves turned differently
    const glm::vec3 du = (u * std::cos(spin) + v * std::sin(spin)) * (0.5f * l.size);
    const glm::vec3 dv = (v * std::cos(spin) - u * std::sin(spin)) * (0.5f * l.size);
    card(m, {mid - du - dv, mid + du - dv, mid + du + dv, mid - du + dv}, j % 2 == 1, leaves, bend, box);
  }
  return m;
}

// ---- Grass: a tuft of blade cards ----
constexpr float kGrassHeight = 0.6f, kGrassWidth = 0.6f;
constexpr int kGrassCards[3] = {6, 3, 2};

PlantMesh grass(int cards, const Aabb& box) {
  PlantMesh m;
  const PlantSurface blades{{255, 255, 255}, kCutoff, 0};
  // Grass is lit mostly from above: normals lean only a little outwards.
  const Bend bend{glm::vec3(0.0f), {1.5f, 0.0f, 1.5f}, 1.0f};
  for (int j = 0; j < cards; ++j) {
    // Upright cards evenly over half a turn, their tops leaning out either way: a tuft that fans.
    const float a = kPi * float(j) / float(cards);
    const glm::vec3 across(std::cos(a), 0.0f, -std::sin(a)), out(std::sin(a), 0.0f, std::cos(a));
    const float lean = j % 2 ? 0.1f : -0.1f, height = kGrassHeight * (0.9f + 0.05f * float(j % 3));
    const glm::vec3 w = across * (0.5f * kGrassWidth);
    const glm::vec3 top = out * lean + kWorldUp * height, bottom = out * (lean * 0.2f);
    // Texture row 0 is the blades' tips: the top corners come first.
    card(m, {top - w * 1.1f, top + w * 1.1f, bottom + w, bottom - w}, j % 2 == 1, blades, bend, box);
  }
  return m;
}

// Builds LOD0 inside `box`, then LOD1 and LOD2 inside LOD0's bounds.
template <class Level>
void levels(PlantModel& model, const Aabb& box, Level&& level) {
  model.lods[0] = level(0, box);
  const Aabb lod0 = model.lods[0].bounds();
  for (int l = 1; l < 3; ++l) model.lods[std::size_t(l)] = level(l, lod0);
  for (std::size_t l = 0; l < 3; ++l) model.from[l] = "generated";
}

}  // namespace

PlantModel make_generated_plant(PlantKind kind) {
  PlantModel model;
  ImpostorOptions impostor;
  switch (kind) {
    case PlantKind::kTree: {
      model.file = "generated tree";
      model.textures = {make_bark_texture(), make_needle_texture()};
      const Aabb box{{-2.6f, 0.05f, -2.6f}, {2.6f, kTreeHeight, 2.6f}};
      levels(model, box, [](int l, const Aabb& b) { return tree(kTreeLevels[l], b); });
      impostor.views = 4;
      break;
    }
    case PlantKind::kBush: {
      model.file = "generated bush";
      model.textures = {make_leaf_texture()};
      const Aabb box{{-kBushRadius, 0.02f, -kBushRadius}, {kBushRadius, kBushHeight, kBushRadius}};
      levels(model, box, [](int l, const Aabb& b) { return bush(kBushLevels[l], b); });
      impostor.views = 3;
      break;
    }
    case PlantKind::kGrass: {
      model.file = "generated grass";
      model.textures = {make_grass_texture()};
      const Aabb box{{-0.5f, 0.0f, -0.5f}, {0.5f, kGrassHeight, 0.5f}};
      levels(model, box, [](int l, const Aabb& b) { return grass(kGrassCards[l], b); });
      impostor.views = 2;
      break;
    }
    default:
      throw Error("no generated plant of kind " + std::to_string(static_cast<std::uint32_t>(kind)),
                  "PlantKind");
  }
  impostor.name = model.file;
  add_impostor(model, impostor);
  model.from[3] = "generated (impostor of LOD0 from " + std::to_string(impostor.views) + " sides)";
  return model;
}

const std::shared_ptr<const PlantModel>& generated_plant(PlantKind kind) {
  static const auto plants = [] {
    std::array<std::shared_ptr<const PlantModel>, std::size_t(PlantKind::kCount)> out;
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = std::make_shared<const PlantModel>(make_generated_plant(static_cast<PlantKind>(k)));
    return out;
  }();
  const auto k = static_cast<std::size_t>(kind);
  if (k >= plants.size()) throw Error("no generated plant of kind " + std::to_string(k), "PlantKind");
  return plants[k];
}

}  // namespace myriad::vegetation
