// Vertex normals from triangles: area weighting, winding, the +Y fallback, and repairs that keep
// authored normals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <glm/geometric.hpp>

#include "myriad/core/mesh/vertex_normals.hpp"

namespace myriad::mesh {
namespace {

void expect_near(glm::vec3 got, glm::vec3 want) {
  EXPECT_NEAR(got.x, want.x, 1e-6f);
  EXPECT_NEAR(got.y, want.y, 1e-6f);
  EXPECT_NEAR(got.z, want.z, 1e-6f);
}

TEST(VertexNormals, LargerTrianglesWeighMore) {
  // Vertex 0 is a corner of a 4 x 4 triangle facing +Z (cross product length 16) and of a unit triangle
  // facing +X (length 1): its normal is (1, 0, 16) normalised, not the even blend (1, 0, 1) / sqrt 2.
  const std::vector<glm::vec3> p = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::uint32_t> t = {0, 1, 2, 0, 3, 4};
  const std::vector<glm::vec3> n = area_weighted_normals(p, t);
  ASSERT_EQ(n.size(), p.size());
  expect_near(n[0], glm::normalize(glm::vec3(1, 0, 16)));
  expect_near(n[1], {0, 0, 1});
  expect_near(n[3], {1, 0, 0});
}

TEST(VertexNormals, WindingChoosesTheSide) {
  const std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  expect_near(area_weighted_normals(p, std::vector<std::uint32_t>{0, 1, 2})[0], {0, 0, 1});
  expect_near(area_weighted_normals(p, std::vector<std::uint32_t>{0, 2, 1})[0], {0, 0, -1});
}

TEST(VertexNormals, VerticesWithoutAreaGetUpAndBrokenFacesAddNothing) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<glm::vec3> p = {{0, 0, 0},   {1, 0, 0}, {0, 1, 0},  // a triangle facing +Z
                                    {inf, 0, 0},  // a corner at infinity, sharing vertices 0 and 1
                                    {5, 5, 5},   {6, 6, 6}, {7, 7, 7},  // a degenerate (collinear) triangle
                                    {9, 9, 9}};                         // a vertex on no triangle
  const std::vector<std::uint32_t> t = {0, 1, 2, 0, 3, 1, 4, 5, 6};
  const std::vector<glm::vec3> n = area_weighted_normals(p, t);
  expect_near(n[0], {0, 0, 1});  // the infinite triangle did not poison its neighbours
  expect_near(n[1], {0, 0, 1});
  expect_near(n[3], {0, 1, 0});
  for (std::size_t v = 4; v < 8; ++v) expect_near(n[v], {0, 1, 0});
}

TEST(VertexNormals, RepairReplacesOnlyUnusableNormals) {
  const std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const std::vector<std::uint32_t> t = {0, 1, 2, 2, 1, 3};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<glm::vec3> n = {{0, 0, 0}, {0.6f, 0, 0.8f}, {nan, 0, 1}, {0, 0, -2}};
  repair_normals(p, t, n);
  expect_near(n[0], {0, 0, 1});
  expect_near(n[1], {0.6f, 0, 0.8f});  // authored, kept
  expect_near(n[2], {0, 0, 1});
  expect_near(n[3], {0, 0, -2});  // authored (even facing away and not unit length), kept
}

}  // namespace
}  // namespace myriad::mesh
