// The CPU twin of the plant-motion shaders. Keep every line in step with render/shaders/wind.glsl,
// plant_motion.glsl and interaction_field.comp: the splat is compared with the GPU's bit for bit, so
// its float operations run in the shader's order (this file is compiled without FMA contraction, the
// shader's are marked precise).
#include "myriad/core/motion/plant_motion.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {
namespace {

constexpr float kTwoPi = 6.28318531f;

bool finite_non_negative(float v) { return std::isfinite(v) && v >= 0.0f; }

}  // namespace

void validate_wind(const WindParams& w) {
  const float len = glm::length(w.direction);
  if (!std::isfinite(len) || std::abs(len - 1.0f) > 1e-3f)
    throw Error("the wind direction must be a unit XZ vector", "WindParams::direction");
  if (!finite_non_negative(w.strength)) throw Error("the wind's lean must be >= 0", "WindParams::strength");
  if (!finite_non_negative(w.gust_strength))
    throw Error("the gusts' lean must be >= 0", "WindParams::gust_strength");
  if (!std::isfinite(w.gust_speed)) throw Error("the gust speed must be finite", "WindParams::gust_speed");
  if (!std::isfinite(w.gust_scale) || w.gust_scale < 1.0f)
    throw Error("gust fronts must be at least a metre apart", "WindParams::gust_scale");
  if (!finite_non_negative(w.flutter)) throw Error("the flutter must be >= 0", "WindParams::flutter");
}

glm::vec2 wind_bend(const WindParams& w, glm::vec2 p, float t) {
  const glm::vec2 d = w.direction;
  const glm::vec2 side(-d.y, d.x);
  const float along = glm::dot(p, d) - w.gust_speed * t;  // the gusts' frame moves with them
  const float across = glm::dot(p, side);
  const float k = kTwoPi / w.gust_scale;
  // Fronts a gust_scale apart, bent by a slow wave across the wind and beating with a longer second
  // front, so gusts come as patches rather than endless lines.
  const float front = k * along + 1.5f * std::sin(0.37f * k * across);
  const float g1 = 0.5f + 0.5f * std::sin(front);
  const float g2 = 0.5f + 0.5f * std::sin(0.43f * k * along + 0.8f * std::sin(0.23f * k * across) + 1.9f);
  const float gust = g1 * g1 * (0.35f + 0.65f * g2);
  // Short ripples riding the gusts, along the wind and across it.
  const float ripple = std::sin(4.1f * k * along + 2.3f * std::sin(0.9f * k * across));
  const float wobble = std::sin(3.3f * k * along + 0.85f * k * across);
  const float flutter = w.flutter * (0.5f + gust);
  const glm::vec2 b =
      d * (w.strength + w.gust_strength * gust + flutter * ripple) + side * (flutter * wobble);
  const float len = glm::length(b);
  return len > kMaxWindBend ? b * (kMaxWindBend / len) : b;
}

float plant_sway_weight(float height) { return 1.0f / (1.0f + 0.25f * height); }
float plant_trample_weight(float height) { return std::clamp((2.0f - height) * 2.0f, 0.0f, 1.0f); }

PlantMotionType plant_motion_type(float height) {
  return {height, plant_sway_weight(height), plant_trample_weight(height)};
}

Aabb sway_bounds(const Aabb& bounds, const PlantMotionType& type) {
  if (!bounds.valid()) return bounds;
  // A vertex moves by at most twice its offset (the offset, then the length restored), and it keeps its
  // distance from the root: within the box grown by that move, and within the cube around the ball of
  // the farthest corner.
  Aabb b = bounds;
  b.expand(glm::vec3(0.0f));
  const float offset =
      std::max(type.height, 0.0f) * std::max(type.sway * kMaxWindBend, type.trample * kTrampleBend);
  const float move = 2.0f * offset;
  float r = 0.0f;
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner((c & 1) ? b.max.x : b.min.x, (c & 2) ? b.max.y : b.min.y,
                           (c & 4) ? b.max.z : b.min.z);
    r = std::max(r, glm::length(corner));
  }
  Aabb out;
  out.min = glm::vec3(std::max(b.min.x - move, -r), b.min.y, std::max(b.min.z - move, -r));
  out.max = glm::vec3(std::min(b.max.x + move, r), std::max(b.max.y, std::min(b.max.y + move, r)),
                      std::min(b.max.z + move, r));
  return out;
}

InteractionGrid interaction_grid_around(glm::vec2 centre_xz, float cell, std::uint32_t resolution) {
  InteractionGrid g;
  g.cell = cell;
  g.inv_cell = 1.0f / cell;
  g.resolution = resolution;
  const glm::vec2 snapped = glm::floor(centre_xz * g.inv_cell) - glm::vec2(float(resolution / 2));
  g.min = snapped * cell;
  return g;
}

Interactor make_interactor(glm::vec2 xz, float radius, float strength) {
  if (!(radius > 0.0f) || !std::isfinite(radius))
    throw Error("a foot's radius must be > 0", "make_interactor");
  return {xz, 1.0f / radius, std::clamp(strength, 0.0f, 1.0f)};
}

bool interactor_reaches(const InteractionGrid& g, glm::vec2 xz, float radius) {
  const float size = g.cell * float(g.resolution);
  return xz.x + radius >= g.min.x && xz.y + radius >= g.min.y && xz.x - radius <= g.min.x + size &&
         xz.y - radius <= g.min.y + size;
}

std::uint32_t interaction_reach(const InteractionGrid& g, float max_radius) {
  return std::uint32_t(std::max(std::ceil(max_radius * g.inv_cell), 0.0f));
}

void splat_interactions(const InteractionGrid& g, std::span<const Interactor> interactors,
                        std::uint32_t reach, std::span<InteractionCell> cells) {
  std::fill(cells.begin(), cells.end(), InteractionCell{});
  const int res = int(g.resolution);
  const int side = 2 * int(reach) + 1;
  const float far = float(res) + float(reach) + 1.0f;
  for (const Interactor& e : interactors) {
    // The GPU runs one thread per (foot, offset); this is that thread's body.
    const glm::vec2 f = glm::floor((e.position - g.min) * g.inv_cell);
    if (!(f.x > -far && f.y > -far && f.x < far && f.y < far)) continue;  // nowhere near the grid
    for (int o = 0; o < side * side; ++o) {
      const int cx = int(f.x) + o % side - int(reach), cz = int(f.y) + o / side - int(reach);
      if (cx < 0 || cz < 0 || cx >= res || cz >= res) continue;
      const glm::vec2 mid = g.min + (glm::vec2(float(cx), float(cz)) + 0.5f) * g.cell;
      const glm::vec2 u = (mid - e.position) * e.inv_radius;
      const float q = u.x * u.x + u.y * u.y;
      if (!(q < 1.0f)) continue;
      const float w = (1.0f - q) * (1.0f - q) * e.strength;
      InteractionCell& c = cells[std::size_t(cz) * std::size_t(res) + std::size_t(cx)];
      c.push_x += int(std::nearbyint(u.x * w * kInteractionOne));
      c.push_z += int(std::nearbyint(u.y * w * kInteractionOne));
      c.press += int(std::nearbyint(w * kInteractionOne));
    }
  }
}

Trample trample_at(const PlantMotionHeader& h, std::span<const InteractionCell> cells, glm::vec2 xz) {
  const InteractionGrid& g = h.grid;
  const glm::vec2 f = glm::floor((xz - g.min) * g.inv_cell);
  const float res = float(g.resolution);
  Trample t;
  t.direction = h.wind.direction;
  if (!(f.x >= 0.0f && f.y >= 0.0f && f.x < res && f.y < res)) return t;
  const InteractionCell& c = cells[std::size_t(f.y) * g.resolution + std::size_t(f.x)];
  const glm::vec2 push = glm::vec2(float(c.push_x), float(c.push_z)) * (1.0f / kInteractionOne);
  const float len = glm::length(push);
  if (len > 1e-5f) t.direction = push / len;
  t.amount = std::min(float(c.press) * (1.0f / kInteractionOne), 1.0f);
  return t;
}

glm::vec2 plant_bend(const PlantMotionHeader& h, std::span<const InteractionCell> cells, glm::vec2 root_xz,
                     float time, float sway, float trample) {
  const glm::vec2 wind = wind_bend(h.wind, root_xz + h.origin, time) * sway;
  const Trample t = trample_at(h, cells, root_xz);
  return glm::mix(wind, t.direction * kTrampleBend, t.amount * trample);
}

glm::vec3 bend_vertex(glm::vec3 rel, float h01, float height, glm::vec2 bend) {
  const float f = h01 * h01;
  const glm::vec3 bent = rel + glm::vec3(bend.x, 0.0f, bend.y) * (height * f);
  const glm::vec3 kept = bent * (glm::length(rel) / std::max(glm::length(bent), 1e-20f));
  return f > 0.0f ? kept : rel;
}

}  // namespace myriad
