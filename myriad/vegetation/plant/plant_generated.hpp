// The generated plants, so the vegetation path needs no third-party art: PlantModels built in code with
// procedural textures. A tree is a conifer (a bark trunk under tiers of alpha-tested needle cards), a
// bush a clump of leaf cards round a stem, grass a tuft of blade cards. LOD0..LOD2 have fewer cards and
// trunk sides per level; the billboard level is an impostor of LOD0 (plant_impostor.hpp).
#pragma once

#include <memory>

#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

// Builds the plant (deterministic; a few milliseconds).
PlantModel make_generated_plant(PlantKind kind);

// The plant of `kind`, built once per process (all three kinds on the first call) and shared.
const std::shared_ptr<const PlantModel>& generated_plant(PlantKind kind);

}  // namespace myriad::vegetation
