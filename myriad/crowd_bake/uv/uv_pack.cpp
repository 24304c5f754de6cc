#include "myriad/crowd_bake/uv/uv_pack.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <cmath>
#include <numbers>
#include <numeric>

namespace myriad::crowd {

namespace {

constexpr int kRotationSteps = 18;  // 5° apart over a quarter turn: a box repeats every 90°

glm::vec2 rotate(glm::vec2 p, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * p.x - s * p.y, s * p.x + c * p.y};
}

// Turns the chart to its smallest bounding box, wider than tall, with its corner at the origin;
// returns the box size.
glm::vec2 orient_chart(std::vector<glm::vec2>& points) {
  if (points.empty()) return glm::vec2(0.0f);
  float best_angle = 0.0f, best_area = std::numeric_limits<float>::max();
  for (int step = 0; step < kRotationSteps; ++step) {
    const float angle = static_cast<float>(step) * 0.5f * std::numbers::pi_v<float> / kRotationSteps;
    glm::vec2 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec2& p : points) {
      const glm::vec2 q = rotate(p, angle);
      lo = glm::min(lo, q);
      hi = glm::max(hi, q);
    }
    const float area = (hi.x - lo.x) * (hi.y - lo.y);
    if (area < best_area) {
      best_area = area;
      best_angle = angle;
    }
  }
  glm::vec2 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (glm::vec2& p : points) {
    p = rotate(p, best_angle);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  glm::vec2 size = hi - lo;
  const bool turn = size.y > size.x;
  for (glm::vec2& p : points) {
    p -= lo;
    if (turn) p = glm::vec2(size.y - p.y, p.x);
  }
  if (turn) size = glm::vec2(size.y, size.x);
  return size;
}

struct Placement {
  int x = 0, y = 0;
};

// Shelf packing into rows `width` texels wide; returns the height used.
int shelf_pack(const std::vector<glm::ivec2>& footprint, const std::vector<std::size_t>& order, int width,
               std::vector<Placement>& placement) {
  int x = 0, y = 0, shelf_height = 0;
  for (const std::size_t i : order) {
    if (x > 0 && x + footprint[i].x > width) {
      y += shelf_height;
      x = 0;
      shelf_height = 0;
    }
    placement[i] = {x, y};
    x += footprint[i].x;
    shelf_height = std::max(shelf_height, footprint[i].y);
  }
  return y + shelf_height;
}

int round_up4(int v) { return (v + 3) / 4 * 4; }

}  // namespace

PackedAtlas pack_charts(std::vector<std::vector<glm::vec2>>& charts, float texels_per_unit, int padding_px,
                        int max_size) {
  if (!(texels_per_unit > 0.0f) || !std::isfinite(texels_per_unit)) {
    throw Error("atlas packing: texel density must be positive and finite", "texels_per_unit");
  }
  std::vector<glm::vec2> sizes(charts.size());
  for (std::size_t c = 0; c < charts.size(); ++c) sizes[c] = orient_chart(charts[c]);
  std::vector<glm::ivec2> footprint(charts.size());
  std::vector<Placement> placement(charts.size());
  std::vector<std::size_t> order(charts.size());
  float density = texels_per_unit;
  for (int attempt = 0;; ++attempt) {
    double total = 0.0;
    int widest = 1;
    for (std::size_t c = 0; c < charts.size(); ++c) {
      footprint[c] = glm::ivec2(static_cast<int>(std::ceil(sizes[c].x * density)) + 2 * padding_px,
                                static_cast<int>(std::ceil(sizes[c].y * density)) + 2 * padding_px);
      footprint[c] = glm::max(footprint[c], glm::ivec2(1 + 2 * padding_px));
      total += static_cast<double>(footprint[c].x) * footprint[c].y;
      widest = std::max(widest, footprint[c].x);
    }
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return footprint[a].y > footprint[b].y; });
    int width = std::max(widest, static_cast<int>(std::ceil(std::sqrt(total / 0.85))));
    int height = shelf_pack(footprint, order, width, placement);
    while (height > width) {
      width = static_cast<int>(std::ceil(width * 1.05)) + 1;
      height = shelf_pack(footprint, order, width, placement);
    }
    width = round_up4(width);
    height = round_up4(height);
    if (std::max(width, height) > max_size && attempt < 64) {
      density *= 0.95f * static_cast<float>(max_size) / static_cast<float>(std::max(width, height));
      continue;
    }
    if (std::max(width, height) > max_size) {
      throw Error("atlas packing: the charts do not fit a " + std::to_string(max_size) + " texel atlas",
                  "max_atlas_size");
    }
    const glm::vec2 scale(1.0f / static_cast<float>(width), 1.0f / static_cast<float>(height));
    for (std::size_t c = 0; c < charts.size(); ++c) {
      const glm::vec2 origin(static_cast<float>(placement[c].x + padding_px),
                             static_cast<float>(placement[c].y + padding_px));
      for (glm::vec2& p : charts[c]) p = (origin + p * density) * scale;
    }
    return {width, height, density};
  }
}

}  // namespace myriad::crowd
