// Baked models (fence, post, lamp, torch, slab, stairs): their faces in the section mesh lie on their
// template's boxes, turned by the cell's turn; fences connect to fences and full block sides (across a
// section border too) and not to air or a cut side; faces against a full side are dropped; vertices carry
// the cell's light and the part's tile; lamps and torches light their surroundings; a model cell does not
// hide its neighbours' faces; the world keeps a model's form as its turn.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/model/model.hpp"

namespace myriad::voxel {
namespace {

constexpr int kGround = 8;  // cells y < 8 are stone

World flat_world() {
  World w(48, 32, 48);
  for (int y = 0; y < kGround; ++y)
    for (int z = 0; z < 48; ++z)
      for (int x = 0; x < 48; ++x) w.set_voxel({x, y, z}, kStone, kFormFull);
  return w;
}

struct Quad {
  std::array<glm::vec3, 4> p;  // world positions
  glm::vec3 normal;
  std::uint32_t light, tex01, tex23;
  glm::vec3 lo() const { return glm::min(glm::min(p[0], p[1]), glm::min(p[2], p[3])); }
  glm::vec3 hi() const { return glm::max(glm::max(p[0], p[1]), glm::max(p[2], p[3])); }
};

// The model quads of one section: the last 4 x model_faces vertices of the mesh.
std::vector<Quad> model_quads(const World& w, glm::ivec3 section) {
  MeshScratch scratch;
  SectionMesh mesh;
  mesh_section(w, section, {}, scratch, mesh);
  const std::size_t n = scratch.model_faces.size();
  EXPECT_GE(mesh.vertices.size(), 4 * n);
  std::vector<Quad> out;
  const std::size_t first = mesh.vertices.size() - 4 * n;
  const std::size_t first_index = mesh.indices.size() - 6 * n;
  for (std::size_t q = 0; q < n; ++q) {
    Quad quad{};
    for (std::size_t c = 0; c < 4; ++c) {
      const TerrainVertex& v = mesh.vertices[first + 4 * q + c];
      quad.p[c] = glm::vec3(v.px, v.py, v.pz) + glm::vec3(section * kSectionSize);
      quad.light = c == 0 ? v.light : std::max(quad.light, v.light);
      quad.tex01 = v.tex01;
      quad.tex23 = v.tex23;
      quad.normal = unpack_octahedral(v.normal);
    }
    // Two triangles over the quad's own vertices, counter-clockwise about the normal.
    const std::uint32_t* i = mesh.indices.data() + first_index + 6 * q;
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(i[k] - std::uint32_t(first + 4 * q), std::uint32_t("\0\1\2\0\2\3"[k]));
    const glm::vec3 winding = glm::cross(quad.p[1] - quad.p[0], quad.p[2] - quad.p[0]);
    EXPECT_GT(glm::dot(winding, quad.normal), 0.0f);
    out.push_back(quad);
  }
  return out;
}

// Quads of the model in `cell` (all of its faces lie in the cell's box).
std::vector<Quad> in_cell(const std::vector<Quad>& quads, glm::ivec3 cell) {
  std::vector<Quad> out;
  for (const Quad& q : quads)
    if (glm::all(glm::greaterThanEqual(q.lo(), glm::vec3(cell))) &&
        glm::all(glm::lessThanEqual(q.hi(), glm::vec3(cell + 1))))
      out.push_back(q);
  return out;
}

float area(const Quad& q) { return glm::length(glm::cross(q.p[1] - q.p[0], q.p[3] - q.p[0])); }

// Faces per side of a model's quads.
std::map<int, int> sides(const std::vector<Quad>& quads) {
  std::map<int, int> out;
  for (const Quad& q : quads) {
    int face = 0;
    for (int f = 0; f < kFaceCount; ++f)
      if (glm::dot(q.normal, glm::vec3(face_direction(f))) > 0.99f) face = f;
    ++out[face];
  }
  return out;
}

TEST(Model, ALoneFenceIsItsPostWithoutTheFaceOnTheGround) {
  World w = flat_world();
  const glm::ivec3 cell{5, kGround, 5};
  w.set_voxel(cell, kFence, 0);
  compute_light(w);
  const std::vector<Quad> quads = model_quads(w, {0, 0, 0});
  ASSERT_EQ(quads.size(), 5u) << "four sides and the top; the bottom lies on the stone's full top";
  for (const Quad& q : quads) {
    EXPECT_NEAR(q.lo().x, float(cell.x) + (q.normal.x > 0.5f ? 10.0f : 6.0f) / 16.0f, 1e-6f);
    EXPECT_NEAR(q.hi().z, float(cell.z) + (q.normal.z < -0.5f ? 6.0f : 10.0f) / 16.0f, 1e-6f);
    EXPECT_EQ(q.tex01, materials()[kWood].tile_side) << "wood, no variation bits, no transitions";
    EXPECT_EQ(q.tex23, 0u);
  }
  EXPECT_EQ(sides(quads), (std::map<int, int>{{kNegX, 1}, {kPosX, 1}, {kPosY, 1}, {kNegZ, 1}, {kPosZ, 1}}));
  // The model cell is open: the stone under it still draws its top face there.
  MeshScratch scratch;
  SectionMesh mesh;
  mesh_section(w, {0, 0, 0}, {MeshMode::kUnmerged}, scratch, mesh);
  bool ground_face = false;
  for (std::size_t v = 0; v + 3 < mesh.quad_vertices; v += 4) {
    const TerrainVertex& a = mesh.vertices[v];
    const TerrainVertex& c = mesh.vertices[v + 2];
    ground_face |= a.py == float(kGround) && std::min(a.px, c.px) == float(cell.x) &&
                   std::min(a.pz, c.pz) == float(cell.z);
  }
  EXPECT_TRUE(ground_face);
}

TEST(Model, FencesConnectToFencesAndFullSidesAcrossSectionBorders) {
  World w = flat_world();
  // A row along x over the border of sections 0 and 1 (x = 15 | 16), ending at a stone block at x = 18;
  // a slope beside the first fence shows its open side to it: no connection there.
  for (int x = 14; x <= 17; ++x) w.set_voxel({x, kGround, 5}, kFence, 0);
  w.set_voxel({18, kGround, 5}, kStone, kFormFull);
  // Unturned, the slope's high (full) side is at -X and its +Z side is a triangle: the fence at z = 5 sees
  // the slope's +Z side across its -Z side.
  w.set_voxel({14, kGround, 4}, kStone, placeable_form(1, 0));
  compute_light(w);
  std::vector<Quad> quads = model_quads(w, {0, 0, 0});
  const std::vector<Quad> right = model_quads(w, {1, 0, 0});
  quads.insert(quads.end(), right.begin(), right.end());

  // Rails reach the cell side they connect on; nothing lies on a shared side (their ends are dropped).
  const auto reach = [&](glm::ivec3 cell, int face) {
    bool reaches = false;
    for (const Quad& q : in_cell(quads, cell)) {
      if (q.normal.y < 0.99f) continue;  // rail tops
      const float edge = face == kPosX ? q.hi().x - float(cell.x + 1) : q.lo().x - float(cell.x);
      reaches |= std::abs(edge) < 1e-6f;
    }
    return reaches;
  };
  const glm::ivec3 a{14, kGround, 5}, b{15, kGround, 5}, c{16, kGround, 5}, d{17, kGround, 5};
  EXPECT_FALSE(reach(a, kNegX)) << "air on -X";
  for (const glm::ivec3 cell : {a, b, c}) EXPECT_TRUE(reach(cell, kPosX));
  for (const glm::ivec3 cell : {b, c, d}) EXPECT_TRUE(reach(cell, kNegX));
  EXPECT_TRUE(reach(d, kPosX)) << "the stone block's full side";
  for (const Quad& q : quads) {
    const bool on_side_x = std::abs(q.lo().x - q.hi().x) < 1e-6f && q.lo().x == std::round(q.lo().x);
    EXPECT_FALSE(on_side_x) << "a rail end on a cell side at x = " << q.lo().x;
  }
  // No rail towards -Z (the slope's cut side) or +Z (air) anywhere: all faces lie within the post's z.
  for (const Quad& q : quads) {
    EXPECT_GE(q.lo().z, 5.0f + 6.0f / 16.0f - 1e-6f);
    EXPECT_LE(q.hi().z, 5.0f + 10.0f / 16.0f + 1e-6f);
  }
  // Connected variants match model_connects.
  EXPECT_TRUE(model_connects(kModelFence, kPosX, kFence, 0));
  EXPECT_TRUE(model_connects(kModelFence, kPosX, kStone, kFormFull));
  EXPECT_FALSE(model_connects(kModelFence, kPosX, kAir, 0));
  EXPECT_FALSE(model_connects(kModelFence, kPosX, kPost, 0)) << "a post is not a fence";
  EXPECT_FALSE(model_connects(kModelPost, kPosX, kFence, 0)) << "posts do not connect";
  // The slope's -X side is full: a fence on its -X side connects to it.
  EXPECT_TRUE(model_connects(kModelFence, kPosX, kStone, placeable_form(1, 0)));
  EXPECT_FALSE(model_connects(kModelFence, kNegX, kStone, placeable_form(1, 0)));
}

TEST(Model, PlacingAFenceReMeshesTheNeighbourSectionItConnectsTo) {
  World w = flat_world();
  w.set_voxel({15, kGround, 5}, kFence, 0);
  compute_light(w);
  const std::size_t before = model_quads(w, {0, 0, 0}).size();
  const EditResult r = edit_voxel(w, {16, kGround, 5}, kFence, 0);
  EXPECT_TRUE(std::find(r.dirty_sections.begin(), r.dirty_sections.end(), w.section_index({0, 0, 0})) !=
              r.dirty_sections.end());
  EXPECT_GT(model_quads(w, {0, 0, 0}).size(), before) << "section 0's fence grew its +X rails";
}

TEST(Model, StairsTurnWithTheCellsTurn) {
  // Unturned, the high step is over x in [0, 1/2]; each quarter turn maps (x, z) to (z, 1 - x).
  // (x0, x1, z0, z1) of the high step's top per turn.
  const std::array<glm::vec4, 4> high_box = {glm::vec4(0, 0.5f, 0, 1), glm::vec4(0, 1, 0.5f, 1),
                                             glm::vec4(0.5f, 1, 0, 1), glm::vec4(0, 1, 0, 0.5f)};
  for (int turn = 0; turn < 4; ++turn) {
    World w = flat_world();
    const glm::ivec3 cell{3, kGround, 3};
    w.set_voxel(cell, kStairs, placed_form(kStairs, 0, turn));
    EXPECT_EQ(w.form(cell), turn);
    compute_light(w);
    const std::vector<Quad> quads = model_quads(w, {0, 0, 0});
    const Quad* top = nullptr;
    float top_area = 0.0f;
    for (const Quad& q : quads)
      if (q.normal.y > 0.99f && q.lo().y == float(kGround + 1)) top = &q, top_area += area(q);
    ASSERT_NE(top, nullptr) << turn;
    EXPECT_NEAR(top_area, 0.5f, 1e-6f);
    const glm::vec4 want = high_box[std::size_t(turn)];  // x0, x1, z0, z1
    EXPECT_EQ(top->lo().x - float(cell.x), want.x) << turn;
    EXPECT_EQ(top->hi().x - float(cell.x), want.y) << turn;
    EXPECT_EQ(top->lo().z - float(cell.z), want.z) << turn;
    EXPECT_EQ(top->hi().z - float(cell.z), want.w) << turn;
    // The whole top (step and tread) covers the cell once: 1/2 at y + 1, 1/2 at y + 1/2.
    float tread = 0.0f;
    for (const Quad& q : quads)
      if (q.normal.y > 0.99f && q.lo().y == float(kGround) + 0.5f) tread += area(q);
    EXPECT_NEAR(tread, 1.0f, 1e-6f) << "the lower half's top is whole (the step stands on it)";
  }
}

TEST(Model, VerticesCarryTheCellsLightAndThePartsTiles) {
  World w = flat_world();
  // A lamp in a closed stone room (no sun), a torch outside in full sun.
  for (int y = kGround; y <= kGround + 4; ++y)
    for (int z = 20; z < 25; ++z)
      for (int x = 20; x < 25; ++x) {
        const bool inside = y > kGround && y < kGround + 4 && x > 20 && x < 24 && z > 20 && z < 24;
        w.set_voxel({x, y, z}, inside ? kAir : kStone, kFormFull);
      }
  const glm::ivec3 lamp{22, kGround + 1, 22}, torch{5, kGround, 5};
  w.set_voxel(lamp, kLamp, 0);
  w.set_voxel(torch, kTorch, 0);
  compute_light(w);
  const Light16 lamp_light = w.light(lamp);
  EXPECT_EQ(light_channel(lamp_light, 0), materials()[kLamp].emit_r);
  EXPECT_EQ(light_channel(lamp_light, 3), 0) << "no sun in the room";
  EXPECT_GT(light_channel(w.light({22, kGround + 2, 22}), 0), 0) << "the lamp lights the cell above it";
  EXPECT_EQ(light_channel(w.light(torch), 3), kLightMax);

  const std::vector<Quad> quads = model_quads(w, {1, 0, 1});
  const std::vector<Quad> lamp_quads = in_cell(quads, lamp);
  ASSERT_FALSE(lamp_quads.empty());
  std::map<std::uint32_t, int> tiles;
  for (const Quad& q : lamp_quads) {
    ++tiles[q.tex01];
    // The brightest corner of every face is the cell's own light, level x 17 per channel.
    EXPECT_EQ(q.light, pack_light({std::uint8_t(light_channel(lamp_light, 0) * 17),
                                   std::uint8_t(light_channel(lamp_light, 1) * 17),
                                   std::uint8_t(light_channel(lamp_light, 2) * 17), 0}));
  }
  EXPECT_GT(tiles[materials()[kLampWarm].tile_side], 0) << "the lantern";
  EXPECT_GT(tiles[materials()[kWood].tile_side], 0) << "the post";
  EXPECT_GT(tiles[materials()[kStoneBrick].tile_side], 0) << "the foot";
  const std::vector<Quad> torch_quads = in_cell(model_quads(w, {0, 0, 0}), torch);
  ASSERT_FALSE(torch_quads.empty());
  for (const Quad& q : torch_quads) EXPECT_EQ(q.light >> 24, 255u) << "full sun";
}

TEST(Model, TheGroundDarkensAModelsFootOnlyOnAFullTop) {
  World w = flat_world();
  const glm::ivec3 on_stone{5, kGround, 5}, hanging{9, kGround + 3, 9};
  w.set_voxel(on_stone, kPost, 0);
  w.set_voxel(hanging, kPost, 0);
  compute_light(w);
  MeshScratch scratch;
  SectionMesh mesh;
  mesh_section(w, {0, 0, 0}, {}, scratch, mesh);
  std::map<float, std::uint32_t> sun_at_foot;  // x of the cell -> sun byte of its lowest vertices
  for (std::size_t v = mesh.vertices.size() - 4 * scratch.model_faces.size(); v < mesh.vertices.size(); ++v) {
    const TerrainVertex& t = mesh.vertices[v];
    if (t.py == float(kGround) || t.py == float(kGround + 3)) sun_at_foot[std::floor(t.px)] = t.light >> 24;
  }
  EXPECT_EQ(sun_at_foot[float(hanging.x)], 255u) << "nothing under it";
  // Full sun (15 x 17 = 255) at AO level 8 of 12: a factor (8 + 8) / 20.
  EXPECT_EQ(sun_at_foot[float(on_stone.x)], 255u * 16u / 20u);
}

TEST(Model, TheWorldKeepsAModelsFormAsItsTurn) {
  World w(16, 16, 16);
  w.set_voxel({1, 1, 1}, kStairs, 0xFE);
  EXPECT_EQ(w.form({1, 1, 1}), 2);
  w.set_voxel({1, 1, 1}, kStone, 0xFE);
  EXPECT_EQ(w.form({1, 1, 1}), 0xFE) << "a block keeps its shape byte";
  EXPECT_EQ(stored_form(kFence, 7), 3);
  EXPECT_EQ(placed_form(kStairs, 1, 5), 1) << "models take no shape; five quarter turns are one";
  // Every model's variants exist and lie inside the cell.
  for (int kind = kModelFence; kind < kModelKindCount; ++kind)
    for (int turn = 0; turn < 4; ++turn)
      for (unsigned conn = 0; conn < kConnectionMasks; ++conn) {
        const ModelVariant v = model_variant(ModelKind(kind), turn, conn);
        ASSERT_FALSE(v.faces.empty());
        ASSERT_FALSE(v.boxes.empty());
        for (const ModelBox& b : v.boxes) {
          EXPECT_TRUE(glm::all(glm::greaterThanEqual(b.lo, glm::vec3(0))) &&
                      glm::all(glm::lessThanEqual(b.hi, glm::vec3(1))));
          EXPECT_TRUE(glm::all(glm::lessThan(b.lo, b.hi)));
        }
      }
}

}  // namespace
}  // namespace myriad::voxel
