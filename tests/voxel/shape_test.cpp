// Shape LUT: empty and full bytes, unit normals, closed hulls, rotation about Y, side masks, degeneracy.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <map>
#include <set>
#include <tuple>

#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

TEST(ShapeLut, EmptyHasNoGeometryAndFullHasSixFullFaces) {
  const ShapeLut& lut = shape_lut();
  EXPECT_FALSE(lut.shapes[0].solid);
  EXPECT_TRUE(lut.all_planes(0).empty());
  const ShapeInfo& full = lut.shapes[255];
  EXPECT_TRUE(full.solid && full.light_opaque);
  for (const std::uint8_t q : full.ao_quarters) EXPECT_EQ(q, kAoQuartersFull);
  for (const std::uint8_t q : lut.shapes[0].ao_quarters) EXPECT_EQ(q, 0);
  EXPECT_EQ(full.outer_count, 6);
  EXPECT_EQ(full.inner_count, 0);
  EXPECT_EQ(full.full_sides, 0x3F);
  EXPECT_FLOAT_EQ(full.volume, 1.0f);
  for (int f = 0; f < kFaceCount; ++f) {
    EXPECT_EQ(full.side_quarters[std::size_t(f)], kQuartersFull);
    const PlaneTemplate& t = lut.planes[std::size_t(lut.side_plane[255][std::size_t(f)])];
    EXPECT_EQ(t.count, 4);
    EXPECT_EQ(t.side, f);
    EXPECT_EQ(glm::ivec3(glm::round(t.normal)), face_direction(f));
  }
}

TEST(ShapeLut, DegenerateBytesHaveNoGeometry) {
  const ShapeLut& lut = shape_lut();
  for (int b = 0; b < 256; ++b) {
    if (std::popcount(unsigned(b)) < 4) {
      EXPECT_FALSE(lut.shapes[std::size_t(b)].solid) << b;
    }
  }
  // Four coplanar corners (a side square or a diagonal rectangle) span no volume.
  for (const int b : {0x0F, 0xF0, 0x55, 0xAA, 0x33, 0xCC})
    EXPECT_FALSE(lut.shapes[std::size_t(b)].solid) << b;
  EXPECT_FALSE(lut.shapes[0x0F].solid);
  EXPECT_FALSE(lut.shapes[0xC3].solid);  // the diagonal rectangle x = z... corners 0,1,6,7
  EXPECT_TRUE(lut.shapes[0x17].solid);   // a corner tetrahedron
  EXPECT_NEAR(lut.shapes[0x17].volume, 1.0f / 6.0f, 1e-6f);
}

TEST(ShapeLut, NormalsAreUnitAndMatchWinding) {
  const ShapeLut& lut = shape_lut();
  for (int b = 0; b < 256; ++b)
    for (const PlaneTemplate& t : lut.all_planes(std::uint8_t(b))) {
      EXPECT_NEAR(glm::length(t.normal), 1.0f, 1e-6f) << b;
      ASSERT_TRUE(t.count == 3 || t.count == 4) << b;
      glm::vec3 newell(0.0f);
      for (int i = 0; i < t.count; ++i) {
        const glm::vec3 p = corner_offset(t.corners[std::size_t(i)]);
        const glm::vec3 q = corner_offset(t.corners[std::size_t((i + 1) % t.count)]);
        newell += glm::cross(p, q);
        // planar: every corner on the plane of the first
        EXPECT_NEAR(glm::dot(p - glm::vec3(corner_offset(t.corners[0])), t.normal), 0.0f, 1e-6f);
      }
      EXPECT_GT(glm::dot(glm::normalize(newell), t.normal), 0.999f) << b;
      const bool axis_aligned =
          std::abs(t.normal.x) == 1.0f || std::abs(t.normal.y) == 1.0f || std::abs(t.normal.z) == 1.0f;
      EXPECT_EQ(t.side >= 0, axis_aligned) << b;
      if (t.side >= 0) {
        EXPECT_EQ(glm::ivec3(glm::round(t.normal)), face_direction(t.side));
      }
    }
}

TEST(ShapeLut, EveryShapeIsClosedAndUsesAllItsCorners) {
  const ShapeLut& lut = shape_lut();
  for (int b = 1; b < 256; ++b) {
    if (!lut.shapes[std::size_t(b)].solid) continue;
    std::map<std::pair<int, int>, int> edges;
    std::uint8_t used = 0;
    float volume6 = 0.0f;
    for (const PlaneTemplate& t : lut.all_planes(std::uint8_t(b))) {
      used |= t.corner_mask;
      for (int i = 0; i < t.count; ++i) {
        const int a = t.corners[std::size_t(i)], c = t.corners[std::size_t((i + 1) % t.count)];
        edges[{a, c}] += 1;
      }
      for (int i = 1; i + 1 < t.count; ++i)
        volume6 += glm::dot(glm::vec3(corner_offset(t.corners[0])),
                            glm::cross(glm::vec3(corner_offset(t.corners[std::size_t(i)])),
                                       glm::vec3(corner_offset(t.corners[std::size_t(i + 1)]))));
    }
    EXPECT_EQ(used, b) << "every set corner is a hull vertex";
    for (const auto& [e, n] : edges) {
      EXPECT_EQ(n, 1) << b;
      const auto back = edges.find({e.second, e.first});
      EXPECT_TRUE(back != edges.end() && back->second == 1) << "open edge in shape " << b;
    }
    EXPECT_NEAR(volume6 / 6.0f, lut.shapes[std::size_t(b)].volume, 1e-5f);
    EXPECT_GT(lut.shapes[std::size_t(b)].volume, 0.0f);
  }
}

// A polygon as (corner set, rounded normal) for set comparisons.
using PlaneKey = std::tuple<int, int, int, int>;
PlaneKey key(std::uint8_t mask, glm::vec3 n) {
  return {mask, int(std::lround(n.x * 1000)), int(std::lround(n.y * 1000)), int(std::lround(n.z * 1000))};
}

TEST(ShapeLut, RotatingTheByteAboutYRotatesItsPlanes) {
  const ShapeLut& lut = shape_lut();
  EXPECT_EQ(rotate_form_y(rotate_form_y(rotate_form_y(rotate_form_y(0x37)))), 0x37);
  EXPECT_EQ(rotate_form_y(std::uint8_t(1u << kCornerX1Y0Z0)), 1u << kCornerX0Y0Z0);  // +X goes to -Z
  for (int b = 0; b < 256; ++b) {
    const std::uint8_t r = rotate_form_y(std::uint8_t(b));
    std::set<PlaneKey> expected, actual;
    for (const PlaneTemplate& t : lut.all_planes(std::uint8_t(b))) {
      std::uint8_t mask = 0;
      for (int c = 0; c < kCornerCount; ++c)
        if (t.corner_mask >> c & 1) {
          const glm::ivec3 rc = rotate_corner_y(corner_offset(c));
          mask = std::uint8_t(mask | 1u << corner_index(rc.x, rc.y, rc.z));
        }
      const glm::vec3 rn{t.normal.z, t.normal.y, -t.normal.x};
      expected.insert(key(mask, rn));
    }
    for (const PlaneTemplate& t : lut.all_planes(r)) actual.insert(key(t.corner_mask, t.normal));
    EXPECT_EQ(expected, actual) << "byte " << b;
    EXPECT_EQ(lut.shapes[std::size_t(b)].inner_count, lut.shapes[r].inner_count);
  }
}

TEST(ShapeLut, SideQuartersMatchOuterPolygons) {
  const ShapeLut& lut = shape_lut();
  for (int b = 0; b < 256; ++b) {
    const ShapeInfo& s = lut.shapes[std::size_t(b)];
    for (int f = 0; f < kFaceCount; ++f) {
      const int idx = lut.side_plane[std::size_t(b)][std::size_t(f)];
      const std::uint8_t q = s.side_quarters[std::size_t(f)];
      if (idx < 0) {
        EXPECT_EQ(q, 0);
        continue;
      }
      const PlaneTemplate& t = lut.planes[std::size_t(idx)];
      EXPECT_EQ(t.count == 4, q == kQuartersFull);
      if (t.count == 3) {
        EXPECT_EQ(std::popcount(q), 2);
        EXPECT_NE(q, 0x3);  // two adjacent quarters, never opposite ones
        EXPECT_NE(q, 0xC);
      }
      EXPECT_EQ(lut.plane_with_normal(std::uint8_t(b), glm::vec3(face_direction(f))), &t);
    }
  }
  // The wedge (bottom + top along x = 0) has a full bottom, a full -X side, triangles on +-Z, one slope.
  const std::uint8_t wedge = 0x0F | 1u << kCornerX0Y1Z0 | 1u << kCornerX0Y1Z1;
  EXPECT_EQ(lut.shapes[wedge].full_sides, 1u << kNegY | 1u << kNegX);
  EXPECT_EQ(lut.shapes[wedge].inner_count, 1);
  EXPECT_EQ(lut.inner_planes(wedge)[0].merge_axis, 2);
  EXPECT_EQ(lut.inner_planes(wedge)[0].light_side, kPosY);
  // It fills the octants under its high edge, half of those under its low edge and at its top edge.
  const std::array<std::uint8_t, kCornerCount> wedge_ao = {4, 2, 4, 2, 2, 0, 2, 0};
  EXPECT_EQ(lut.shapes[wedge].ao_quarters, wedge_ao);
  EXPECT_FALSE(lut.shapes[wedge].light_opaque);
}

}  // namespace
}  // namespace myriad::voxel
