#version 460
// Voxel trees (V15): the tree's prebuilt template (trunk slices + crown) scaled by its height, swayed
// by the offset the wind pass computed this frame (growing with height), lit from two probes.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "core/layout/packing.glsl"
#include "voxel_tree_place.glsl"

layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
layout(binding = 2, scalar) readonly buffer Visible { uint visible[]; };
layout(binding = 3, scalar) readonly buffer Sway { vec2 sway[]; };
layout(binding = 4, scalar) readonly buffer Template { TreeVertexGpu template_vertices[]; };
layout(push_constant, scalar) uniform Push { VoxelVegetationDrawPush pc; };

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec4 out_light;
layout(location = 2) flat out uint out_kind;  // 0 trunk, 1 crown, + 2 * tree type
layout(location = 3) out vec3 out_world;       // shadow lookups
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

void main() {
  uint id = visible[gl_InstanceIndex];
  TreeInstance t = trees[id];
  TreeVertexGpu v = template_vertices[tree_template_vertex(t, uint(gl_VertexIndex), pc.template_stride,
                                                          uint(template_vertices.length()))];
  vec3 world = tree_vertex_world(t, v, sway[id]);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
  out_normal = v.normal.xyz;
  out_light = mix(unpack_light(t.light_root), unpack_light(t.light_top), clamp(v.position.y, 0.0, 1.0));
  out_kind = uint(v.position.w) + 2u * ((t.type_height & 0xFFFFu) / MYRIAD_TREE_VARIANTS);
  out_world = world;
}
