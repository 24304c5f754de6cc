// Impostors: the far level of any plant as crossed vertical quads, each showing LOD0 from one side.
// LOD0 is rasterized on the CPU per view (orthographic, depth-tested, alpha-tested as the fragment shader
// does it, 2 x 2 samples a texel) into an RGBA texture: alpha the share covered, colour the unlit base
// colour of the nearest surface, so a distant plant keeps its silhouette and colours and is lit as others.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

struct ImpostorOptions {
  // Views at azimuths 180° * k / views: the far side of a view is its mirror image, which the back of
  // its quad shows, so half a turn covers every direction.
  std::uint32_t views = 4;
  std::uint32_t size = 128;    // texels per side of each view
  std::string name = "plant";  // the views' texture names start with it
};

struct Impostor {
  // Quad k (vertices 4k..4k+3, front triangles then back ones) spans LOD0's extent across view k and
  // its full height, stands midway through LOD0's depth in that view and samples texture
  // first_texture + k with the alpha cutoff kCoverageCutoff. (Seen from a diagonal, a lopsided plant's
  // quads may reach past LOD0's bounding box; a plant centred on its origin's stay inside.)
  PlantMesh mesh;
  std::vector<PlantTexture> textures;  // one per view
};

// `textures` are what the surfaces of `lod0` index; the impostor's quads index their own textures from
// `first_texture` on (where the caller puts them). Throws on a LOD0 without triangles or naming a
// texture that is not there.
Impostor bake_impostor(const PlantMesh& lod0, std::span<const PlantTexture> textures,
                       std::uint16_t first_texture, const ImpostorOptions& options = {});

// Bakes `model`'s LOD0 into its billboard level, appending the views to its textures.
void add_impostor(PlantModel& model, const ImpostorOptions& options = {});

}  // namespace myriad::vegetation
