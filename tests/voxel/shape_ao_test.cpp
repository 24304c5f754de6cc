// AO that knows shapes: the LUT's occlusion per corner octant for slopes, corner pieces and 7-corner
// shapes, and hand-worked vertex light next to them on a flat floor (a 16 x 16 stone floor at y = 0, one
// shape at (8, 1, 8), sun 15 in every cell that is not a full cube). With sun 15 in all four cells at a
// vertex the sun byte is round(255 * (ao + 8) / 20): ao 12 -> 255, 11 -> 242, 10 -> 230, 9 -> 217, 8 -> 204.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint8_t bit(int corner) { return std::uint8_t(1u << corner); }

// Bottom four corners plus the top corners along x = 1: a slope rising towards +x.
constexpr std::uint8_t kWedgeUpX = 0x0F | bit(kCornerX1Y1Z0) | bit(kCornerX1Y1Z1);
// Bottom four corners plus the top corner (1, 1, 1): a pyramid (outer corner of a hill).
constexpr std::uint8_t kCornerPiece = 0x0F | bit(kCornerX1Y1Z1);
// Everything but the top corner (0, 1, 0): the inner corner of a slope.
constexpr std::uint8_t kSevenCorners = std::uint8_t(0xFF & ~bit(kCornerX0Y1Z0));

int sun_byte(int ao) { return (2 * 60 * 17 * (ao + 8) + 80) / 160; }

TEST(ShapeAo, OctantOcclusionOfSlopeShapes) {
  const ShapeLut& lut = shape_lut();
  // Wedge y <= x: under the high edge (x = 1) full, under the low edge half, top high edge half.
  EXPECT_EQ(lut.shapes[kWedgeUpX].ao_quarters, (std::array<std::uint8_t, 8>{2, 4, 2, 4, 0, 2, 0, 2}));
  // Pyramid y <= min(x, z): bottom (0,0,0) a third, (1,0,0) and (0,0,1) half, (1,0,1) full, apex a third.
  EXPECT_EQ(lut.shapes[kCornerPiece].ao_quarters, (std::array<std::uint8_t, 8>{1, 2, 2, 4, 0, 0, 0, 1}));
  // Cut corner (0,1,0): its octant keeps 1/6, the three next to it 5/6, the other four are full.
  EXPECT_EQ(lut.shapes[kSevenCorners].ao_quarters, (std::array<std::uint8_t, 8>{3, 4, 4, 4, 1, 3, 3, 4}));
  EXPECT_EQ(lut.ao_corners[kFormFull], 0x44444444u);
  EXPECT_EQ(sun_byte(12), 255);
  EXPECT_EQ(sun_byte(8), 204);
}

World floor_with(std::uint8_t form) {
  World w(16, 16, 16);
  for (int z = 0; z < 16; ++z)
    for (int x = 0; x < 16; ++x) w.set_voxel({x, 0, z}, kStone, kFormFull);
  if (form) w.set_voxel({8, 1, 8}, kDirt, form);
  for (std::size_t i = 0; i < w.lights().size(); ++i)
    w.lights()[i] = w.forms()[i] == kFormFull ? 0 : make_light16(0, 0, 0, 15);
  return w;
}

// Sun bytes of the vertices at `p` (section-local) whose normal satisfies `want`.
template <typename Pred>
std::vector<int> suns_at(const SectionMesh& m, glm::vec3 p, Pred want) {
  std::vector<int> out;
  for (const TerrainVertex& v : m.vertices) {
    if (v.px != p.x || v.py != p.y || v.pz != p.z) continue;
    if (!want(unpack_octahedral(v.normal))) continue;
    out.push_back(int(unpack_light(v.light).sun));
  }
  return out;
}

const SectionMesh& mesh(const World& w, std::vector<SectionMesh>& meshes,
                        MeshMode mode = MeshMode::kUnmerged) {
  WorldMesher mesher;
  mesher.mesh_all(w, {mode}, meshes);
  return meshes[0];
}

bool floor_normal(glm::vec3 n) { return n.y > 0.99f; }
bool slope_normal(glm::vec3 n) { return n.y > 0.1f && n.y < 0.99f; }

// Every floor vertex at p (all floor cells touching it) has the expected sun byte.
void expect_floor(const SectionMesh& m, glm::vec3 p, int ao, const char* what) {
  const std::vector<int> s = suns_at(m, p, floor_normal);
  ASSERT_FALSE(s.empty()) << what;
  for (const int v : s) EXPECT_EQ(v, sun_byte(ao)) << what << " at " << p.x << "," << p.y << "," << p.z;
}

TEST(ShapeAo, FullCubeBaselineIsZeroFps) {
  std::vector<SectionMesh> meshes;
  const SectionMesh& m = mesh(floor_with(kFormFull), meshes);
  expect_floor(m, {8, 1, 8}, 8, "one side cube");  // 0fps level 2
  expect_floor(m, {9, 1, 9}, 8, "one side cube");
  expect_floor(m, {7, 1, 7}, 12, "open floor");
}

// The wedge's foot (low edge at x = 8) is a crease with the floor: the floor there is darkened by the
// wedge's half-filled octant (ao 10), and the slope's own bottom vertices, sampled in the same layer
// (their light side is +Y), get exactly the same light. At the high edge (x = 9) the wedge's full side
// darkens the floor like a cube (ao 8); its top edge is open (ao 12).
TEST(ShapeAo, WedgeNextToAFlatFloor) {
  std::vector<SectionMesh> meshes;
  const SectionMesh& m = mesh(floor_with(kWedgeUpX), meshes);
  expect_floor(m, {8, 1, 8}, 10, "wedge foot");
  expect_floor(m, {8, 1, 9}, 10, "wedge foot");
  expect_floor(m, {9, 1, 8}, 8, "wedge high side");
  for (const glm::vec3 p : {glm::vec3(8, 1, 8), glm::vec3(8, 1, 9)}) {
    const std::vector<int> slope = suns_at(m, p, slope_normal);
    ASSERT_EQ(slope.size(), 1u);
    EXPECT_EQ(slope[0], sun_byte(10)) << "the slope's foot matches the floor's";
  }
  for (const glm::vec3 p : {glm::vec3(9, 2, 8), glm::vec3(9, 2, 9)}) {
    const std::vector<int> slope = suns_at(m, p, slope_normal);
    ASSERT_EQ(slope.size(), 1u);
    EXPECT_EQ(slope[0], sun_byte(12));
  }
  // The atlas path shades the same (the floor becomes greedy quads with records).
  std::vector<SectionMesh> atlas;
  const SectionMesh& a = mesh(floor_with(kWedgeUpX), atlas, MeshMode::kAtlas);
  EXPECT_FALSE(a.atlas.empty());
}

// The pyramid darkens the floor by a quarter level at its bottom (0,0,0) corner (a third of that octant
// filled), half a level at (1,0,0) and (0,0,1) (half filled) and a full level at (1,0,1), under its apex
// edges, where the bottom octant is full.
TEST(ShapeAo, CornerPieceDarkensProportionally) {
  std::vector<SectionMesh> meshes;
  const SectionMesh& m = mesh(floor_with(kCornerPiece), meshes);
  expect_floor(m, {8, 1, 8}, 11, "corner piece (0,0,0)");
  expect_floor(m, {9, 1, 8}, 10, "corner piece (1,0,0)");
  expect_floor(m, {8, 1, 9}, 10, "corner piece (0,0,1)");
  expect_floor(m, {9, 1, 9}, 8, "corner piece (1,0,1)");
}

// The 7-corner shape is a cube except near its cut corner: there it darkens the floor by 3 quarters
// (ao 9) where a cube darkens by a full level (ao 8); elsewhere it darkens like a cube.
TEST(ShapeAo, SevenCornerShapeIsNotAFullCube) {
  std::vector<SectionMesh> meshes;
  const SectionMesh& m = mesh(floor_with(kSevenCorners), meshes);
  expect_floor(m, {8, 1, 8}, 9, "below the cut corner");
  expect_floor(m, {9, 1, 8}, 8, "far from the cut");
  expect_floor(m, {8, 1, 9}, 8, "far from the cut");
  expect_floor(m, {9, 1, 9}, 8, "far from the cut");
}

}  // namespace
}  // namespace myriad::voxel
