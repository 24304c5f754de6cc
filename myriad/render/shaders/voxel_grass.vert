#version 460
// Voxel grass (V15): near LOD = two crossed quads (12 vertices), far LOD = one quad of 6 vertices
// rotated about the tuft's up vector toward the camera. Generated from gl_VertexIndex; 16-byte
// instances rooted on the surface, their up vector the surface normal (tilted on slopes), so the quads'
// bottom edges lie in the surface plane. The tuft sways in the wind and gives way to feet
// (plant_motion.glsl: bent about its root by its height, the root fixed).
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "plant_motion.glsl"

layout(binding = 0, scalar) readonly buffer Grass { GrassInstance grass[]; };
layout(binding = 2, scalar) readonly buffer Visible { uint visible[]; };
layout(push_constant, scalar) uniform Push { VoxelVegetationDrawPush pc; };

layout(location = 0) out vec2 out_uv;
layout(location = 1) flat out uint out_template_light;
layout(location = 2) out vec3 out_world;  // shadow lookups
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

const vec2 kCorners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
  GrassInstance g = grass[visible[gl_InstanceIndex]];
  vec3 root = vec3(g.px, g.py, g.pz);
  uint tmpl = g.template_light & 0xFu;
  float height = 0.55 + 0.12 * float(tmpl % 4u);
  // The up vector: signed 6-bit x and z in 31sts (voxel::pack_grass_template).
  float ux = float(bitfieldExtract(int(g.template_light), 4, 6)) / 31.0;
  float uz = float(bitfieldExtract(int(g.template_light), 10, 6)) / 31.0;
  vec3 up = vec3(ux, sqrt(max(1.0 - ux * ux - uz * uz, 0.0)), uz);
  vec2 c = kCorners[gl_VertexIndex % 6];
  // Both LODs' axes, then a select on the push constant rather than a branch (see shadow.glsl).
  float angle = fract(sin(dot(root.xz, vec2(4.898, 7.23))) * 23421.631) * 3.14159265;
  vec3 crossed = vec3(cos(angle), 0.0, sin(angle));
  if (gl_VertexIndex >= 6) crossed = vec3(-crossed.z, 0.0, crossed.x);  // the second, crossed quad
  vec3 to_camera = pc.camera.xyz - root;
  vec3 billboard = normalize(vec3(to_camera.z, 0.0, -to_camera.x) + vec3(1e-6, 0.0, 0.0));
  vec3 axis = mix(billboard, crossed, bvec3(pc.lod == 0u));
  axis = normalize(axis - up * dot(axis, up) + vec3(0.0, 1e-6, 0.0));  // into the surface plane
  vec3 rel = axis * (c.x - 0.5) * 0.9 + up * (c.y * height);
  vec2 bend = plant_bend(PlantMotion(pc.motion), root.xz, pc.time, plant_sway_weight(height),
                         plant_trample_weight(height));
  vec3 world = root + bend_vertex(rel, c.y, height, bend);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
  out_uv = c;
  out_template_light = g.template_light;
  out_world = world;
}
