#version 460
// Vegetation shadow casters (depth only): alpha-tested cards cast the shadow of their leaves, not of
// their quads. The texel's alpha is tested against the surface's cutoff exactly as veg_plant.frag does
// (untextured surfaces never drop). Layout as veg_plant_body.glsl's, the plant textures at binding 5.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_layout.h"
#include "plant_texel.glsl"

layout(binding = 5) uniform sampler2DArray plant_textures;

layout(location = 5) in vec2 in_uv;
layout(location = 6) flat in vec4 in_surface;  // base colour, alpha cutoff
layout(location = 7) flat in uint in_layer;

void main() {
  float alpha = plant_texel(plant_textures, in_uv, in_layer).a;
  if (alpha < in_surface.a) discard;
}
