// Layouts of the VAT crowd passes (crowd_cull.comp and the crowd draw shaders), shared by C++ and GLSL.
#ifndef MYRIAD_CROWD_LAYOUT_H
#define MYRIAD_CROWD_LAYOUT_H

#include "shared_types.h"
// The entity (CrowdEntity), a clip (VatClipRuntime) and VatFrame are the crowd module's own records.
#ifdef __cplusplus
#include "myriad/crowd/crowd_gpu_layout.h"
#else
#include "crowd/crowd_gpu_layout.h"
#endif

#define CROWD_LOD_COUNT 3

MYRIAD_SHADER_NAMESPACE_BEGIN
// Per enemy type: culling bounds (see crowd::CrowdTypeBounds).
struct CrowdTypeGpu {
  float bound_radius;
  float diameter;
  uint slot_capacity;  // list entries each of the type's LOD slots holds (its entity count)
  uint pad1;
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
  vec4 to_light;  // xyz: towards the light (the shading model's sun, lighting.glsl), w: unused
  float time;     // global clock, seconds
  uint type;
  uint lod;
  uint lod_colors;  // 1: colour by LOD instead of texture (diagnostics)
  uint shadow;      // 1: the shadow map's draw (entries flagged CROWD_ENTRY_SECONDARY cast nothing)
  vec3 sun_color;   // FrameView::sun_color (the shading model reads the frame's light block's)
};

// Per frame. Draw slot s = type * CROWD_LOD_COUNT + level owns commands[s] (its instance_count is
// incremented per visible entity) and the list entries from commands[s].first_instance on.
struct CrowdCullPush {  // 128 bytes: the guaranteed push-constant size
  vec4 planes[6];
  vec3 camera;  // world position
  uint entity_count;
  vec2 switch_ratio;  // x: LOD1, y: LOD2 (distance / diameter)
  float band_step;    // crowd::LodCurve::band_step (cross-fade bands; 0: none)
  // Low 16 bits: the number of types (an entity's type is 16 bits too); bits 16..23: CULL_PHASE_*;
  // bits 24..31: the forced level + 1 (0: per-entity LOD).
  uint types_phase;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(CrowdTypeGpu, 16, bound_radius, 0, diameter, 4, slot_capacity, 8, pad1, 12);
MYRIAD_CHECK_LAYOUT(CrowdVatProbe, 16, column, 0, clip, 4, local_time, 8, pad, 12);
MYRIAD_CHECK_LAYOUT(CrowdVatProbePush, 8, columns, 0, probe_count, 4);
MYRIAD_CHECK_LAYOUT(CrowdVertexGpu, 12, column, 0, uv, 4);
MYRIAD_CHECK_LAYOUT(CrowdTypeDrawGpu, 16, texel_offset, 0, columns, 4, clip_offset, 8, clip_count, 12);
MYRIAD_CHECK_LAYOUT(CrowdDrawPush, 112, view_proj, 0, to_light, 64, time, 80, type, 84, lod, 88, lod_colors,
                    92, shadow, 96, sun_color, 100);
MYRIAD_CHECK_LAYOUT(CrowdCullPush, 128, planes, 0, camera, 96, entity_count, 108, switch_ratio, 112,
                    band_step, 120, types_phase, 124);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
