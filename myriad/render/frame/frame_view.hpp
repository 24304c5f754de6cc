// Everything a system needs to know about the view it culls and draws for, built once per view per
// frame (FrameView::of_camera for the camera, ShadowMap::view for the light) and passed by reference
// to every system: nothing else builds a frustum or reshapes the camera.
#pragma once

#include <cstdint>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/math/math.hpp"
#include "myriad/render/frame/lighting.hpp"

namespace myriad::render {

struct SceneCamera;

// The slice height that cuts nothing (V14): a view sliced lower than this is cut.
inline constexpr float kNoSlice = 1e30f;

struct FrameView {
  // Relative to the render origin; reverse-Z (the camera: infinite far plane; the light: orthographic).
  glm::mat4 view{1.0f}, proj{1.0f}, view_proj{1.0f};
  Frustum frustum;  // the culling volume of view_proj
  // The render origin in world space (double precision) and the camera relative to it. A shadow view
  // keeps the camera's eye: LOD and distance limits stay the camera's, so casters match what is drawn.
  glm::dvec3 origin{0.0};
  glm::vec3 eye{0.0f};
  glm::vec3 forward{0.0f, 0.0f, 1.0f};
  float fov_y = 0.96f;  // radians, of the camera
  float near_plane = 0.2f;
  float aspect = 1.0f;
  std::uint32_t width = 1, height = 1;   // pixels of the camera's image
  glm::vec3 to_light{0.0f, 1.0f, 0.0f};  // unit vector towards the light
  glm::vec3 sun_color{1.0f};             // the light's colour, multiplying its direct term
  Lighting lighting;                     // the shading model's parameters (sky, fog, exposure, mode)
  float slice_height = kNoSlice;         // voxel world: nothing above this height is drawn (V14)
  float draw_distance = 0.0f;            // metres along `forward` (limit_distance); 0: no limit
  float time = 0.0f;                     // scene clock at this frame, seconds (animation, wind)
  bool is_shadow = false;                // the light's view: depth only, casters

  // The camera's view of a `width` x `height` image; `to_light` is normalized (a zero vector is an error).
  static FrameView of_camera(const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
                             glm::vec3 to_light, float time = 0.0f, glm::dvec3 origin = glm::dvec3(0.0));
  // A view from an engine's own matrices: `view` (world to eye, looking down -Z) and a reverse-Z
  // perspective `proj` (perspective_infinite_reverse_z or a finite one); fov, near plane, eye and
  // forward are read from them.
  static FrameView of_matrices(const glm::mat4& view, const glm::mat4& proj, std::uint32_t width,
                               std::uint32_t height, glm::vec3 to_light, float time = 0.0f,
                               glm::dvec3 origin = glm::dvec3(0.0));
  // Limits the view to `metres` from the eye along `forward`: the frustum's far plane moves there, so
  // every system's culling drops what lies wholly beyond it, and distance fog is complete there. 0 (or
  // less) takes the limit away: the far plane goes back to the projection's own (at infinity for the
  // camera's). Throws for a non-finite distance.
  void limit_distance(float metres);
  // A light's depth-only view: its orthographic view-projection and culling volume with everything else
  // (eye, LOD reference, slice, image) taken from the camera view.
  FrameView light_view(const glm::mat4& light_view_proj) const;

  // LOD reference: the fraction of the image height a 1 m object covers 1 m from the eye,
  // 1 / (2 tan(fov_y / 2)); times `height` it is in pixels.
  float lod_scale() const;
  float pixels_per_metre_at_unit_distance() const { return lod_scale() * float(height); }
};

}  // namespace myriad::render
