// Culling your own objects with Myriad's CPU frustum API (Myriad::core only, no GPU).
//
// The application keeps its objects in its own arrays (here: bounding spheres and boxes of random
// "props" around a camera). Myriad builds the six frustum planes from the camera's view-projection
// matrix and tests spheres and boxes against them; these are the same tests, bit for bit, that
// Myriad's GPU culling passes run. The example checks Myriad's answers against naive loops written
// from scratch and writes the counts to <out>/cpu_culling.json.
//
// Usage: cpu_culling [output folder]   (default: the current folder)
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "myriad/core/cull/bounds.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/math/math.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path out = argc > 1 ? argv[1] : ".";
  std::filesystem::create_directories(out);

  // 1. The camera: at (0, 2, 0) looking towards -Z, 70 degree vertical field of view, 16:9.
  //    myriad::perspective gives a Vulkan projection (depth 0..1, y flipped; see math.hpp).
  const float fov_y = glm::radians(70.0f), aspect = 16.0f / 9.0f, z_near = 0.1f, z_far = 300.0f;
  const glm::mat4 view =
      glm::lookAt(glm::vec3(0.0f, 2.0f, 0.0f), glm::vec3(0.0f, 2.0f, -1.0f), glm::vec3(0, 1, 0));
  const glm::mat4 proj = myriad::perspective(fov_y, aspect, z_near, z_far);
  const myriad::Frustum frustum = myriad::Frustum::from_view_proj(proj * view);

  // 2. The application's own data: random spheres and boxes in a 800 m cube around the camera.
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> pos(-400.0f, 400.0f), size(0.1f, 8.0f);
  std::vector<myriad::Sphere> spheres(100000);
  std::vector<myriad::Aabb> boxes(100000);
  for (myriad::Sphere& s : spheres) s = {{pos(rng), pos(rng), pos(rng)}, size(rng)};
  for (myriad::Aabb& b : boxes) {
    const glm::vec3 c(pos(rng), pos(rng), pos(rng));
    b = myriad::Aabb::from_center_extent(c, glm::vec3(size(rng), size(rng), size(rng)));
  }

  // 3. Cull with Myriad: keep the indices of what is (at least partly) inside the frustum.
  std::vector<std::size_t> visible_spheres, visible_boxes;
  std::size_t boxes_wholly_inside = 0;
  for (std::size_t i = 0; i < spheres.size(); ++i)
    if (frustum.intersects(spheres[i])) visible_spheres.push_back(i);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (frustum.intersects(boxes[i])) visible_boxes.push_back(i);
    if (frustum.contains(boxes[i])) ++boxes_wholly_inside;  // e.g. accept a whole group without more tests
  }

  // 4a. Naive sphere check from the camera's parameters in view space (no matrix planes): inside the
  //     near/far range and within the four side planes, each allowing the radius. Rounding differs
  //     from Myriad's plane arithmetic, so only spheres clearly away from every plane must agree.
  const float tan_y = std::tan(fov_y * 0.5f), tan_x = tan_y * aspect;
  std::size_t sphere_mismatches = 0, sphere_borderline = 0;
  std::size_t next = 0;  // walks visible_spheres alongside
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const glm::vec3 c = glm::vec3(view * glm::vec4(spheres[i].center, 1.0f));
    const float r = spheres[i].radius, depth = -c.z;
    const float margins[6] = {depth + r - z_near,
                              z_far - (depth - r),
                              (depth * tan_x - c.x) / std::sqrt(1.0f + tan_x * tan_x) + r,
                              (depth * tan_x + c.x) / std::sqrt(1.0f + tan_x * tan_x) + r,
                              (depth * tan_y - c.y) / std::sqrt(1.0f + tan_y * tan_y) + r,
                              (depth * tan_y + c.y) / std::sqrt(1.0f + tan_y * tan_y) + r};
    bool naive = true, near_a_plane = false;
    for (const float m : margins) {
      naive = naive && m >= 0.0f;
      near_a_plane = near_a_plane || std::fabs(m) < 1e-3f;
    }
    const bool myriad_says = next < visible_spheres.size() && visible_spheres[next] == i;
    if (myriad_says) ++next;
    if (naive != myriad_says) ++(near_a_plane ? sphere_borderline : sphere_mismatches);
  }

  // 4b. Naive box check: a box is outside when all 8 of its corners are outside one plane. This must
  //     agree exactly with Myriad's test, which looks only at the corner furthest along each normal.
  std::size_t box_mismatches = 0, naive_visible_boxes = 0;
  next = 0;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    bool outside = false;
    for (const myriad::Plane& p : frustum.planes) {
      bool all_out = true;
      for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner(k & 1 ? boxes[i].max.x : boxes[i].min.x,
                               k & 2 ? boxes[i].max.y : boxes[i].min.y,
                               k & 4 ? boxes[i].max.z : boxes[i].min.z);
        all_out = all_out && p.distance(corner) < 0.0f;
      }
      outside = outside || all_out;
    }
    naive_visible_boxes += outside ? 0 : 1;
    const bool myriad_says = next < visible_boxes.size() && visible_boxes[next] == i;
    if (myriad_says) ++next;
    if (myriad_says == outside) ++box_mismatches;
  }

  // 5. Report. A scene where nothing or everything is visible would prove nothing, so it fails too.
  std::printf("spheres: %zu of %zu visible (naive check: %zu mismatches, %zu within 1e-3 of a plane)\n",
              visible_spheres.size(), spheres.size(), sphere_mismatches, sphere_borderline);
  std::printf("boxes:   %zu of %zu visible, %zu wholly inside (naive check: %zu visible, %zu mismatches)\n",
              visible_boxes.size(), boxes.size(), boxes_wholly_inside, naive_visible_boxes, box_mismatches);
  const std::filesystem::path json = out / "cpu_culling.json";
  std::ofstream file(json);
  file << "{\n  \"spheres\": " << spheres.size() << ",\n  \"visible_spheres\": " << visible_spheres.size()
       << ",\n  \"sphere_mismatches\": " << sphere_mismatches << ",\n  \"boxes\": " << boxes.size()
       << ",\n  \"visible_boxes\": " << visible_boxes.size()
       << ",\n  \"boxes_wholly_inside\": " << boxes_wholly_inside
       << ",\n  \"box_mismatches\": " << box_mismatches << "\n}\n";
  file.close();
  if (!file) {
    std::fprintf(stderr, "cpu_culling: cannot write %s\n", json.string().c_str());
    return 1;
  }
  std::printf("wrote %s\n", json.string().c_str());
  const bool trivial = visible_spheres.empty() || visible_spheres.size() == spheres.size() ||
                       visible_boxes.empty() || visible_boxes.size() == boxes.size();
  if (sphere_mismatches != 0 || box_mismatches != 0 || trivial) {
    std::fprintf(stderr, "cpu_culling: Myriad and the naive checks disagree (or the scene is trivial)\n");
    return 1;
  }
  return 0;
}
