// Layouts of the VAT crowd passes (crowd_cull.comp and the crowd draw shaders), shared by C++ and GLSL.
#ifndef MYRIAD_CROWD_LAYOUT_H
#define MYRIAD_CROWD_LAYOUT_H

#include "shared_types.h"

#define CROWD_LOD_COUNT 3

MYRIAD_SHADER_NAMESPACE_BEGIN
// One crowd member: the bytes of myriad::crowd::CrowdEntity.
struct CrowdEntityGpu {
  vec3 position;
  uint yaw_scale;  // half yaw (radians) | half scale << 16
  uint type_clip;  // type | clip << 16
  float time_offset;
  float speed;
  uint tint;  // RGBA8
};

// Per enemy type: culling bounds (see crowd::CrowdTypeBounds).
struct CrowdTypeGpu {
  float bound_radius;
  float diameter;
  uint slot_capacity;  // list entries each of the type's LOD slots holds (its entity count)
  uint pad1;
};

// One VAT clip (the bytes of crowd::VatClipRuntime): position = origin + texel·step.
struct CrowdClipGpu {
  vec3 origin;
  uint first_row;
  vec3 step;
  uint frames;
  float duration;
  float inv_duration;
  float fps;
  uint pad;
};

// Test probe of VAT sampling: one vertex column of one clip at one local time.
struct CrowdVatProbe {
  uint column;
  uint clip;
  float local_time;
  uint pad;
};

struct CrowdVatProbePush {
  uint columns;  // VAT width
  uint probe_count;
};

// One LOD mesh vertex: its VAT column (within its type) and texture coordinate.
struct CrowdVertexGpu {
  uint column;
  vec2 uv;
};

// Where one enemy type's VAT and clips start in the shared buffers.
struct CrowdTypeDrawGpu {
  uint texel_offset;  // in texels (each two u32)
  uint columns;
  uint clip_offset;
  uint clip_count;
};

// Per draw (one (type, LOD) slot).
struct CrowdDrawPush {
  mat4 view_proj;
  vec4 sun_direction;  // xyz: towards the light, w: ambient
  float time;          // global clock, seconds
  uint type;
  uint lod;
  uint lod_colors;  // 1: colour by LOD instead of texture (diagnostics)
};

// Per frame. Draw slot s = type * CROWD_LOD_COUNT + level owns commands[s] (its instance_count is
// incremented per visible entity) and the list entries from commands[s].first_instance on.
struct CrowdCullPush {  // 128 bytes: the guaranteed push-constant size
  vec4 planes[6];
  vec3 camera;  // world position
  uint entity_count;
  vec2 switch_ratio;  // x: LOD1, y: LOD2 (distance / diameter)
  uint type_count;
  int forced_level;  // -1 = per entity
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::CrowdEntityGpu) == 32);
static_assert(sizeof(myriad::render::shader::CrowdTypeGpu) == 16);
static_assert(offsetof(myriad::render::shader::CrowdTypeGpu, slot_capacity) == 8);
static_assert(sizeof(myriad::render::shader::CrowdCullPush) == 128);
static_assert(sizeof(myriad::render::shader::CrowdClipGpu) == 48);
static_assert(sizeof(myriad::render::shader::CrowdVertexGpu) == 12);
static_assert(sizeof(myriad::render::shader::CrowdTypeDrawGpu) == 16);
static_assert(sizeof(myriad::render::shader::CrowdDrawPush) == 96);
static_assert(sizeof(myriad::render::shader::CrowdVatProbe) == 16);
#endif

#endif
