// The textures of the generated plants (plant_generated.hpp), drawn in code: small, deterministic RGBA
// images in natural colours (the field's per-instance tint multiplies on top). Needles, leaves and grass
// blades are transparent between their shapes, so the cards that show them are alpha-tested.
#pragma once

#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

// Opaque brown bark with vertical furrows; it tiles both ways (wrapped around a trunk).
PlantTexture make_bark_texture();

// A fir branch seen from above: a twig with side twigs, clad in dark green needles. u runs across the
// branch, v from its base (0) to its tip (1); the outline is widest near the base and tapers to the tip.
PlantTexture make_needle_texture();

// A cluster of broad leaves in mid greens, each leaf a little different; the corners stay empty, so a
// card reads as a rounded clump rather than a square.
PlantTexture make_leaf_texture();

// Yellow-green grass blades rising from the bottom edge (v = 1), leaning and tapering to their tips.
PlantTexture make_grass_texture();

}  // namespace myriad::vegetation
