// A random batch scene shared by the batch tests: renderers with 1-3 materials, three property sets,
// LOD groups with 3 levels, several layer masks.
#pragma once

#include "myriad/batch/scene.hpp"

#include <memory>
#include <random>

namespace myriad::batch::test {

struct RandomScene {
  PropertySetRegistry sets;
  BatchType tint = 0, tone = 0, pattern = 0;
  std::unique_ptr<BatchScene> scene;

  explicit RandomScene(std::size_t renderers, std::uint32_t seed = 7) {
    tint = sets.add({"tint", {{"tint", 4}}, {1, 1, 1, 1}});
    tone = sets.add({"tone", {{"tone", 3}}, {}});
    pattern = sets.add({"pattern", {{"pattern", 1}, {"tint", 4}}, {}});
    scene = std::make_unique<BatchScene>(sets);
    std::mt19937 rng(seed);  // fixed seed: the same scene every run
    std::uniform_real_distribution<float> pos(-60.0f, 60.0f), unit(0.0f, 1.0f);
    for (int g = 0; g < 40; ++g) {
      LodGroup lg;
      lg.center = {pos(rng), 0.0f, pos(rng)};
      lg.size = 2.0f;
      lg.level_count = 3;
      lg.transitions[0] = 0.3f;
      lg.transitions[1] = 0.1f;
      lg.transitions[2] = 0.03f;
      scene->add_lod_group(lg);
    }
    const BatchType types[4] = {0, tint, tone, pattern};
    for (std::size_t i = 0; i < renderers; ++i) {
      RendererDesc r;
      const glm::vec3 c(pos(rng), pos(rng) * 0.2f, pos(rng));
      r.bounds = {c, 0.2f + 2.0f * unit(rng)};
      r.object_to_world = glm::translate(glm::mat4(1.0f), c);
      r.layer_mask = 1u << (rng() % 3);
      if (rng() % 3 == 0) {
        r.lod_group = static_cast<std::uint32_t>(rng() % 40);
        r.lod_level = static_cast<std::uint8_t>(rng() % 3);
        r.bounds.center = scene->lod_groups()[r.lod_group].center;
      }
      r.palette_offset = static_cast<std::uint32_t>(i * 3);
      std::vector<DrawDesc> draws(1 + rng() % 3);
      for (DrawDesc& d : draws) {
        d.mesh = static_cast<std::uint32_t>(rng() % 6);
        d.material = static_cast<std::uint32_t>(rng() % 4);
        d.type = types[rng() % 4];
      }
      r.draws = draws;
      scene->add_renderer(r);
    }
  }
};

}  // namespace myriad::batch::test
