// The built-in enemy types of the demo crowd: three variants of the procedural enemy (standard,
// thin-limbed, finer), each baked through the whole LOD pipeline, so crowd scenes and benchmarks run
// without external files.
#pragma once

#include "myriad/crowd_bake/pipeline.hpp"

#include <vector>

namespace myriad::crowd {

inline constexpr int kBuiltInEnemyTypes = 3;

// Throws myriad::Error naming the variant and the failed check when a bake does not pass.
std::vector<CrowdFile> bake_builtin_enemy_types(const BakeProgress& progress = {});

}  // namespace myriad::crowd
