#include "myriad/crowd_bake/enemy/enemy_roster.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"

#include <string>

namespace myriad::crowd {

std::vector<CrowdFile> bake_builtin_enemy_types(const BakeProgress& progress) {
  EnemyOptions variants[kBuiltInEnemyTypes];
  variants[1].tube_sides = 5;
  variants[2].tube_sides = 8;
  variants[2].rings_per_bone = 4;
  std::vector<CrowdFile> types;
  for (int i = 0; i < kBuiltInEnemyTypes; ++i) {
    const std::string name = "enemy" + std::to_string(i);
    BakeOutput out = bake_crowd(make_enemy(variants[i]), name, BakeOptions{}, progress);
    if (!out.report.passed)
      throw Error("baking the built-in enemy type " + name + " failed: " + out.report.failure);
    types.push_back(std::move(out.file));
  }
  return types;
}

}  // namespace myriad::crowd
