#version 460
// Voxel trees into the shadow map (V15, X2): one instanced draw per run of tree slots whose sections
// passed the CPU test against the shadow view; here each tree is tested itself (empty slot, rooted above
// the slice, farther from the camera than the draw distance, bounding sphere outside the shadow view:
// the same sphere and rules as voxel_tree_cull.comp) and a rejected tree's vertices leave the clip
// volume. The sway is the one the camera's culling pass wrote this frame.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "frustum.glsl"
#include "voxel_tree_place.glsl"

layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
layout(binding = 1, scalar) readonly buffer Sway { vec2 sway[]; };
layout(binding = 2, scalar) readonly buffer Template { TreeVertexGpu template_vertices[]; };
layout(push_constant, scalar) uniform Push { VoxelVegetationDrawPush pc; };  // camera.w: draw distance

out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

// The planes of a view-projection, as myriad::Frustum::from_view_proj builds them (reverse-Z).
bool in_view(mat4 m, vec4 s) {
  vec4 r0 = vec4(m[0][0], m[1][0], m[2][0], m[3][0]), r1 = vec4(m[0][1], m[1][1], m[2][1], m[3][1]);
  vec4 r2 = vec4(m[0][2], m[1][2], m[2][2], m[3][2]), r3 = vec4(m[0][3], m[1][3], m[2][3], m[3][3]);
  vec4 planes[6] = vec4[](r3 + r0, r3 - r0, r3 - r1, r3 + r1, r3 - r2, r2);
  for (int i = 0; i < 6; ++i) planes[i] /= length(planes[i].xyz);
  return frustum_intersects_sphere(planes, s);
}

void main() {
  uint id = uint(gl_InstanceIndex);
  TreeInstance t = trees[id];
  vec3 p = vec3(t.px, t.py, t.pz);
  float height = tree_height(t);
  bool casts = (t.type_height & 0xFFFFu) != MYRIAD_EMPTY_TEMPLATE && p.y <= pc.slice_height &&
              distance(pc.camera.xyz, p) <= pc.camera.w &&
              in_view(pc.view_proj, vec4(p + vec3(0.0, 0.5 * height, 0.0), 0.75 * height + 1.5));
  if (!casts) {
    gl_Position = vec4(-2.0, -2.0, -2.0, 1.0);
    gl_ClipDistance[0] = -1.0;
    return;
  }
  uint v = tree_template_vertex(t, uint(gl_VertexIndex), pc.template_stride, uint(template_vertices.length()));
  vec3 world = tree_vertex_world(t, template_vertices[v], sway[id]);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
}
