// Frustum planes of known cameras, AABB/sphere classification, reverse-Z and infinite-far variants,
// the box helpers culling uses (grown, distance_to), and a randomized comparison of the plane tests with an
// independent double-precision reference that works on the 8 transformed corners in clip space.
#include <gtest/gtest.h>

#include <array>
#include <cfloat>
#include <random>

#include "myriad/core/io/error.hpp"
#include "myriad/core/cull/frustum.hpp"

namespace myriad {
namespace {

void expect_plane(const Plane& p, glm::vec3 normal, float d) {
  EXPECT_NEAR(p.normal.x, normal.x, 1e-5f);
  EXPECT_NEAR(p.normal.y, normal.y, 1e-5f);
  EXPECT_NEAR(p.normal.z, normal.z, 1e-5f);
  EXPECT_NEAR(p.d, d, 1e-4f * (1.0f + std::abs(d)));
}

TEST(Aabb, GrownMovesEveryFaceAndDistanceIsZeroInsideAndEuclideanOutside) {
  const Aabb box{glm::vec3(0.0f, 0.0f, 0.0f), glm::vec3(2.0f, 4.0f, 6.0f)};
  const Aabb g = box.grown(0.5f);
  EXPECT_EQ(g.min, glm::vec3(-0.5f));
  EXPECT_EQ(g.max, glm::vec3(2.5f, 4.5f, 6.5f));
  EXPECT_EQ(box.distance_to(glm::vec3(1.0f, 2.0f, 3.0f)), 0.0f);         // inside
  EXPECT_EQ(box.distance_to(glm::vec3(2.0f, 4.0f, 6.0f)), 0.0f);         // on a corner
  EXPECT_FLOAT_EQ(box.distance_to(glm::vec3(5.0f, 2.0f, 3.0f)), 3.0f);   // off one face
  EXPECT_FLOAT_EQ(box.distance_to(glm::vec3(-3.0f, 8.0f, 3.0f)), 5.0f);  // off an edge: 3-4-5
  EXPECT_FLOAT_EQ(box.distance_to(glm::vec3(4.0f, -2.0f, 7.0f)), 3.0f);  // off a corner: 2, 2, 1
}

TEST(Frustum, PlanesOfKnownCamera) {
  // 90 degree square frustum at the origin looking down -Z, near 1, far 100.
  const float h = std::sqrt(0.5f);
  const glm::mat4 proj = perspective(glm::radians(90.0f), 1.0f, 1.0f, 100.0f);
  const Frustum f = Frustum::from_view_proj(proj);
  expect_plane(f.planes[kLeft], {h, 0.0f, -h}, 0.0f);
  expect_plane(f.planes[kRight], {-h, 0.0f, -h}, 0.0f);
  expect_plane(f.planes[kBottom], {0.0f, h, -h}, 0.0f);
  expect_plane(f.planes[kTop], {0.0f, -h, -h}, 0.0f);
  expect_plane(f.planes[kNear], {0.0f, 0.0f, -1.0f}, -1.0f);
  expect_plane(f.planes[kFar], {0.0f, 0.0f, 1.0f}, 100.0f);
  // Names follow the view: a point above the view (+Y) is outside the top plane only.
  EXPECT_LT(f.planes[kTop].distance({0.0f, 60.0f, -50.0f}), 0.0f);
  EXPECT_GT(f.planes[kBottom].distance({0.0f, 60.0f, -50.0f}), 0.0f);

  // The same camera moved to (10, 5, 0) and turned to look down +X.
  const glm::mat4 view = glm::lookAt(glm::vec3(10.0f, 5.0f, 0.0f), glm::vec3(11.0f, 5.0f, 0.0f), kWorldUp);
  const Frustum g = Frustum::from_view_proj(proj * view);
  expect_plane(g.planes[kNear], {1.0f, 0.0f, 0.0f}, -11.0f);
  expect_plane(g.planes[kFar], {-1.0f, 0.0f, 0.0f}, 110.0f);
  expect_plane(g.planes[kBottom], {h, h, 0.0f}, -h * 15.0f);
}

TEST(Frustum, ReverseZGivesTheSamePlanes) {
  const glm::mat4 view = glm::lookAt(glm::vec3(3.0f, 4.0f, 5.0f), glm::vec3(-7.0f, 1.0f, 2.0f), kWorldUp);
  const Frustum zo = Frustum::from_view_proj(perspective(1.2f, 1.7f, 0.5f, 80.0f) * view);
  const Frustum rz =
      Frustum::from_view_proj(perspective(1.2f, 1.7f, 0.5f, 80.0f, true) * view, DepthConvention::kReverseZ);
  for (int i = 0; i < kFrustumPlaneCount; ++i) {
    SCOPED_TRACE(i);
    expect_plane(rz.planes[static_cast<std::size_t>(i)], zo.planes[static_cast<std::size_t>(i)].normal,
                 zo.planes[static_cast<std::size_t>(i)].d);
  }
}

TEST(Frustum, InfiniteFarPlaneAcceptsEverythingAhead) {
  const glm::mat4 view = glm::lookAt(glm::vec3(0.0f, 2.0f, 0.0f), glm::vec3(0.0f, 2.0f, -1.0f), kWorldUp);
  const Frustum f = Frustum::from_view_proj(perspective_infinite_reverse_z(1.0f, 1.0f, 0.1f) * view,
                                            DepthConvention::kReverseZ);
  EXPECT_EQ(f.planes[kFar].normal, glm::vec3(0.0f));
  EXPECT_EQ(f.planes[kFar].d, FLT_MAX);
  expect_plane(f.planes[kNear], {0.0f, 0.0f, -1.0f}, -0.1f);
  EXPECT_TRUE(f.intersects(Aabb::from_center_extent({0.0f, 2.0f, -1e6f}, glm::vec3(1000.0f))));
  EXPECT_TRUE(f.contains(Aabb::from_center_extent({0.0f, 2.0f, -1e6f}, glm::vec3(1000.0f))));
  EXPECT_TRUE(f.intersects(Sphere{{0.0f, 2.0f, -1e7f}, 1.0f}));
  EXPECT_FALSE(f.intersects(Aabb::from_center_extent({0.0f, 2.0f, 5.0f}, glm::vec3(1.0f))));  // behind
  EXPECT_FALSE(f.intersects(Sphere{{0.0f, 2.0f, 5.0f}, 1.0f}));
}

TEST(Frustum, AabbAndSphereClassification) {
  const Frustum f = Frustum::from_view_proj(perspective(glm::radians(90.0f), 1.0f, 1.0f, 100.0f));
  // Wholly inside.
  const Aabb inside = Aabb::from_center_extent({0.0f, 0.0f, -50.0f}, glm::vec3(5.0f));
  EXPECT_TRUE(f.intersects(inside));
  EXPECT_TRUE(f.contains(inside));
  EXPECT_TRUE(f.intersects(Sphere{{0.0f, 0.0f, -50.0f}, 5.0f}));
  // Straddling the left plane, the near plane, the far plane.
  for (glm::vec3 c :
       {glm::vec3(-50.0f, 0.0f, -50.0f), glm::vec3(0.0f, 0.0f, -1.0f), glm::vec3(0.0f, 0.0f, -100.0f)}) {
    const Aabb box = Aabb::from_center_extent(c, glm::vec3(2.0f));
    EXPECT_TRUE(f.intersects(box));
    EXPECT_FALSE(f.contains(box));
    EXPECT_TRUE(f.intersects(Sphere{c, 2.0f}));
  }
  // Wholly outside: left, right, above, below, behind, beyond far.
  for (glm::vec3 c :
       {glm::vec3(-60.0f, 0.0f, -50.0f), glm::vec3(60.0f, 0.0f, -50.0f), glm::vec3(0.0f, 60.0f, -50.0f),
        glm::vec3(0.0f, -60.0f, -50.0f), glm::vec3(0.0f, 0.0f, 10.0f), glm::vec3(0.0f, 0.0f, -110.0f)}) {
    const Aabb box = Aabb::from_center_extent(c, glm::vec3(4.0f));
    EXPECT_FALSE(f.intersects(box)) << c.x << " " << c.y << " " << c.z;
    EXPECT_FALSE(f.contains(box));
    EXPECT_FALSE(f.intersects(Sphere{c, 4.0f}));
  }
  // A box enclosing the whole frustum intersects but is not contained.
  const Aabb huge = Aabb::from_center_extent({0.0f, 0.0f, 0.0f}, glm::vec3(1000.0f));
  EXPECT_TRUE(f.intersects(huge));
  EXPECT_FALSE(f.contains(huge));
}

// Independent reference: the clip-space inequalities evaluated in double for the 8 corners.
struct ClipReference {
  glm::dmat4 m;
  DepthConvention depth;

  // Signed clip-space values (>= 0 inside) of the 6 inequalities, scaled to world distances.
  std::array<double, 6> plane_values(glm::dvec3 p) const {
    const glm::dvec4 c = m * glm::dvec4(p, 1.0);
    const double near_v = depth == DepthConvention::kZeroToOne ? c.z : c.w - c.z;
    const double far_v = depth == DepthConvention::kZeroToOne ? c.w - c.z : c.z;
    return {c.w + c.x, c.w - c.x, c.w + c.y, c.w - c.y, near_v, far_v};
  }
  std::array<double, 6> gradient_lengths() const {
    std::array<double, 6> len{};
    // Each inequality is linear in p: its gradient is value(e_i) - value(0).
    const auto v0 = plane_values({0.0, 0.0, 0.0});
    std::array<glm::dvec3, 6> g{};
    for (int a = 0; a < 3; ++a) {
      glm::dvec3 e(0.0);
      e[a] = 1.0;
      const auto va = plane_values(e);
      for (int i = 0; i < 6; ++i)
        g[static_cast<std::size_t>(i)][a] = va[static_cast<std::size_t>(i)] - v0[static_cast<std::size_t>(i)];
    }
    for (std::size_t i = 0; i < 6; ++i) len[i] = glm::length(g[i]);
    return len;
  }
  // Plane test semantics: rejected iff all corners are outside one plane by more than `margin`.
  // Returns +1 clearly visible, -1 clearly rejected, 0 too close to call.
  int classify(const Aabb& box, double margin) const {
    const auto len = gradient_lengths();
    bool clearly_out = false, ambiguous = false;
    for (std::size_t i = 0; i < 6; ++i) {
      if (len[i] < 1e-12) continue;  // infinite far plane
      double max_dist = -1e300;
      for (int c = 0; c < 8; ++c) {
        const glm::dvec3 corner(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                                c & 4 ? box.max.z : box.min.z);
        max_dist = std::max(max_dist, plane_values(corner)[i] / len[i]);
      }
      if (max_dist < -margin)
        clearly_out = true;
      else if (max_dist <= margin)
        ambiguous = true;
    }
    if (clearly_out) return -1;
    return ambiguous ? 0 : 1;
  }
  // Containment: all 8 corners inside every plane by more than margin (+1), or a corner outside
  // some plane by more than margin (-1).
  int classify_contains(const Aabb& box, double margin) const {
    const auto len = gradient_lengths();
    bool ambiguous = false;
    for (std::size_t i = 0; i < 6; ++i) {
      if (len[i] < 1e-12) continue;
      for (int c = 0; c < 8; ++c) {
        const glm::dvec3 corner(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                                c & 4 ? box.max.z : box.min.z);
        const double dist = plane_values(corner)[i] / len[i];
        if (dist < -margin) return -1;
        if (dist <= margin) ambiguous = true;
      }
    }
    return ambiguous ? 0 : 1;
  }
  // A point strictly inside by `margin`: any box containing it must be accepted.
  bool point_inside(glm::dvec3 p, double margin) const {
    const auto len = gradient_lengths();
    const auto v = plane_values(p);
    for (std::size_t i = 0; i < 6; ++i) {
      if (len[i] < 1e-12) continue;
      if (v[i] / len[i] <= margin) return false;
    }
    return true;
  }
};

TEST(Frustum, RandomizedAgainstClipSpaceReference) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int decided = 0, visible = 0, rejected = 0, contained = 0;
  for (int camera = 0; camera < 60; ++camera) {
    const glm::vec3 eye(u(rng) * 50.0f, u(rng) * 20.0f, u(rng) * 50.0f);
    const glm::vec3 target = eye + glm::normalize(glm::vec3(u(rng), u(rng) * 0.5f, u(rng)) + 0.001f);
    const glm::mat4 view = glm::lookAt(eye, target, kWorldUp);
    const float fov = 0.5f + (u(rng) + 1.0f), aspect = 1.0f + (u(rng) + 1.0f);
    const int variant = camera % 3;
    const DepthConvention depth = variant == 0 ? DepthConvention::kZeroToOne : DepthConvention::kReverseZ;
    const glm::mat4 proj = variant == 0   ? perspective(fov, aspect, 0.5f, 150.0f)
                           : variant == 1 ? perspective(fov, aspect, 0.5f, 150.0f, true)
                                          : perspective_infinite_reverse_z(fov, aspect, 0.5f);
    const Frustum f = Frustum::from_view_proj(proj * view, depth);
    const ClipReference ref{glm::dmat4(proj * view), depth};
    for (int b = 0; b < 2000; ++b) {
      const glm::vec3 center = eye + glm::vec3(u(rng), u(rng), u(rng)) * 200.0f;
      const glm::vec3 extent = glm::abs(glm::vec3(u(rng), u(rng), u(rng))) * (b % 4 == 0 ? 40.0f : 6.0f);
      const Aabb box = Aabb::from_center_extent(center, extent);
      const int expected = ref.classify(box, 1e-3);
      if (expected != 0) {
        ++decided;
        EXPECT_EQ(f.intersects(box), expected > 0) << "camera " << camera << " box " << b;
        (expected > 0 ? visible : rejected)++;
      }
      // Conservative: a box holding a point clearly inside is never culled.
      if (ref.point_inside(glm::dvec3(center), 1e-3)) {
        EXPECT_TRUE(f.intersects(box));
      }
      const int inside = ref.classify_contains(box, 1e-3);
      if (inside != 0) {
        EXPECT_EQ(f.contains(box), inside > 0) << "camera " << camera << " box " << b;
        contained += inside > 0;
      }
      // Spheres: a sphere whose centre is clearly inside must pass.
      if (ref.point_inside(glm::dvec3(center), 1e-3)) {
        EXPECT_TRUE(f.intersects(Sphere{center, 0.0f}));
      }
    }
  }
  // The sample must exercise both outcomes, or the comparison proves little.
  EXPECT_GT(visible, 5000);
  EXPECT_GT(rejected, 5000);
  EXPECT_GT(contained, 500);
  EXPECT_GT(decided, 100000);
}

TEST(Frustum, DegenerateMatrixThrows) { EXPECT_THROW(Frustum::from_view_proj(glm::mat4(0.0f)), Error); }

}  // namespace
}  // namespace myriad
