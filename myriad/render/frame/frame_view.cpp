#include "myriad/render/frame/frame_view.hpp"

#include <algorithm>
#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/render/frame/frame_scene.hpp"

namespace myriad::render {

namespace {

// The fields both constructors set alike: image, matrices, frustum, light, clock, origin.
FrameView with_image(FrameView v, const glm::mat4& view, const glm::mat4& proj, std::uint32_t width,
                     std::uint32_t height, glm::vec3 to_light, float time, glm::dvec3 origin) {
  if (width == 0 || height == 0) throw Error("FrameView: empty image");
  if (!(glm::length(to_light) > 0.0f)) throw Error("FrameView: zero light direction");
  v.width = width;
  v.height = height;
  v.aspect = float(width) / float(height);
  v.view = view;
  v.proj = proj;
  v.view_proj = proj * view;
  v.frustum = Frustum::from_view_proj(v.view_proj, DepthConvention::kReverseZ);
  v.to_light = glm::normalize(to_light);
  v.time = time;
  v.origin = origin;
  return v;
}

}  // namespace

FrameView FrameView::of_camera(const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
                               glm::vec3 to_light, float time, glm::dvec3 origin) {
  FrameView v;
  v.eye = camera.eye;
  v.forward = camera.forward;
  v.fov_y = camera.fov_y;
  v.near_plane = camera.near_plane;
  v.slice_height = camera.slice_height;
  const float aspect = height > 0 ? float(width) / float(height) : 1.0f;
  return with_image(v, camera.view(), perspective_infinite_reverse_z(camera.fov_y, aspect, camera.near_plane),
                    width, height, to_light, time, origin);
}

FrameView FrameView::of_matrices(const glm::mat4& view, const glm::mat4& proj, std::uint32_t width,
                                 std::uint32_t height, glm::vec3 to_light, float time, glm::dvec3 origin) {
  FrameView v;
  const glm::mat4 eye_to_world = glm::inverse(view);
  v.eye = glm::vec3(eye_to_world[3]);
  v.forward = -glm::normalize(glm::vec3(eye_to_world[2]));
  v.fov_y = 2.0f * std::atan(1.0f / std::abs(proj[1][1]));  // Vulkan projections flip Y
  // Reverse-Z: depth = near / distance for the infinite projection; clip w = distance.
  v.near_plane = proj[3][2];
  return with_image(v, view, proj, width, height, to_light, time, origin);
}

void FrameView::limit_distance(float metres) {
  if (!std::isfinite(metres)) throw Error("draw distance must be finite", "FrameView::draw_distance");
  if (is_shadow) throw Error("a light's view keeps the camera's draw distance", "FrameView::limit_distance");
  draw_distance = std::max(metres, 0.0f);
  Plane& far = frustum.planes[kFar];
  if (draw_distance == 0.0f) {  // the projection's own far plane (at infinity for the camera's)
    far = Frustum::from_view_proj(view_proj, DepthConvention::kReverseZ).planes[kFar];
    return;
  }
  // Inward normal -forward: distance = draw_distance - forward . (p - eye), >= 0 inside.
  const glm::vec3 n = -glm::normalize(forward);
  far = Plane{n, draw_distance - glm::dot(n, eye)};
}

FrameView FrameView::light_view(const glm::mat4& light_view_proj) const {
  FrameView v = *this;
  v.view = light_view_proj;
  v.proj = glm::mat4(1.0f);
  v.view_proj = light_view_proj;
  v.frustum = Frustum::from_view_proj(light_view_proj, DepthConvention::kReverseZ);
  v.is_shadow = true;
  return v;
}

float FrameView::lod_scale() const { return 1.0f / (2.0f * std::tan(0.5f * fov_y)); }

}  // namespace myriad::render
