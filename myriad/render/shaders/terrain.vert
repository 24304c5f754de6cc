#version 460
// Voxel terrain (V6, V7, V12, V14): one non-indexed indirect draw per visible arena, one instance per
// visible page, bucket-size vertices per instance. Each vertex pulls its index and vertex from the
// arena through device addresses; vertices past the page's real index count are discarded (moved
// outside the clip volume). The slice clips by clip distance, never by fragment discard. The shadow
// pass runs this shader alone (no fragment stage) with the light's view-projection.
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "page_layout.h"
#include "terrain_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "core/layout/packing.glsl"

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer VertexArena { TerrainVertex v[]; };
layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer IndexArena { uint i[]; };

layout(binding = 0, scalar) readonly buffer Pages { PageGpu pages[]; };
layout(binding = 1, scalar) readonly buffer TerrainPages { TerrainPageGpu terrain_pages[]; };
layout(binding = 2, scalar) readonly buffer Visible { uint visible[]; };
layout(binding = 3, scalar) readonly buffer Arenas { ArenaAddressGpu arena_addresses[]; };
layout(push_constant, scalar) uniform Push { TerrainPush pc; };

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_light;        // plain polygons: interpolated corner light
layout(location = 3) out vec2 out_quad_uv;      // greedy quads: quad-local cell coordinates
layout(location = 4) flat out uvec4 out_surface;  // tex01, tex23, atlas record base, vertex light word

out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

void main() {
  uint page_id = visible[gl_InstanceIndex];
  PageGpu page = pages[page_id];
  if (uint(gl_VertexIndex) >= page.index_count) {
    gl_Position = vec4(-2.0, -2.0, -2.0, 1.0);  // surplus of the draw bucket: outside every clip plane
    gl_ClipDistance[0] = -1.0;
    return;
  }
  ArenaAddressGpu a = arena_addresses[pc.arena];
  uint index = IndexArena(uvec2(a.indices_lo, a.indices_hi)).i[page.first_index + uint(gl_VertexIndex)];
  TerrainVertex tv = VertexArena(uvec2(a.vertices_lo, a.vertices_hi)).v[page.first_vertex + index];
  TerrainPageGpu tp = terrain_pages[page_id];
  vec3 world = tp.origin + vec3(tv.px, tv.py, tv.pz) * pc.cell_scale;
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
  out_world = world;
  out_normal = unpack_octahedral(tv.normal);
  out_light = unpack_light(tv.light);
  out_quad_uv = vec2(float((tv.tex01 >> 16) & 0xFFu), float(tv.tex01 >> 24));
  out_surface = uvec4(tv.tex01, tv.tex23, page.first_vertex + tp.atlas_first + tv.light, tv.light);
}
