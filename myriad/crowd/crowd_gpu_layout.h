// The crowd records the GPU reads as they are, defined once for C++ and GLSL (core/layout/gpu_layout.h): the
// entity (what crowd culling and the VAT draw read per member), a VAT clip as the runtime samples it,
// and the frame pair a clock falls between. The VAT passes include this through
// render/shaders/crowd_layout.h.
#ifndef MYRIAD_CROWD_CROWD_GPU_LAYOUT_H
#define MYRIAD_CROWD_CROWD_GPU_LAYOUT_H

#ifdef __cplusplus
#include "myriad/core/layout/gpu_layout.h"
namespace myriad::crowd {
#else
#include "core/layout/gpu_layout.h"
#endif

// Per-entity LOD state (crowd::decide_lod, entity_lod.hpp), one word per entity kept from frame to
// frame by the CPU reference and by the GPU culling pass: the level in the low two bits (CROWD_LOD_NONE
// before the first decision), CROWD_LOD_FADING while the entity is inside a cross-fade band, the band
// (switch) index at CROWD_LOD_BAND_SHIFT and the fade q (0..255) at CROWD_LOD_Q_SHIFT.
#define CROWD_LOD_LEVEL_MASK 3u
#define CROWD_LOD_NONE 3u
#define CROWD_LOD_FADING 4u
#define CROWD_LOD_BAND_SHIFT 4
#define CROWD_LOD_Q_SHIFT 8
#define CROWD_FADE_STEPS 256u  // a band is cut into this many equal steps of distance; q is the step

// A draw list entry (one word per listed entity and LOD): the entity id in the low CROWD_ENTRY_ID_BITS
// bits, the fade q above it, CROWD_ENTRY_INCOMING for the farther LOD of a band (it keeps the pixels
// whose dither value is below q, the nearer LOD those at or above q: complementary masks) and
// CROWD_ENTRY_SECONDARY when the entry's LOD is not the entity's level (it casts no shadow). An entity
// outside every band is listed once with q = 0 and no flags: the entry is its id.
#define CROWD_ENTRY_ID_BITS 22
#define CROWD_ENTRY_ID_MASK 0x3fffffu
#define CROWD_ENTRY_Q_SHIFT 22
#define CROWD_ENTRY_INCOMING 0x40000000u
#define CROWD_ENTRY_SECONDARY 0x80000000u

// One crowd member, 32 bytes.
struct CrowdEntity {
  MYRIAD_GPU_TYPES
  vec3 position MYRIAD_INIT(vec3(0.0f));  // world position of the entity's origin (feet)
  uint yaw_scale MYRIAD_INIT(0u);         // two half floats: yaw (radians) low, uniform prefab scale high
  uint type_clip MYRIAD_INIT(0u);         // enemy type low 16 bits, clip index high 16 bits
  float time_offset MYRIAD_INIT(0.0f);    // seconds added to the global clock
  float speed MYRIAD_INIT(1.0f);          // playback rate
  uint tint MYRIAD_INIT(0xffffffffu);     // RGBA8
};

// One VAT clip as the runtime reads it, 48 bytes: position = origin + texel * step.
struct VatClipRuntime {
  MYRIAD_GPU_TYPES
  vec3 origin MYRIAD_INIT(vec3(0.0f));  // position of texel value 0
  uint first_row MYRIAD_INIT(0u);
  vec3 step MYRIAD_INIT(vec3(0.0f));  // position change per texel unit: (max - min) / 65535
  uint frames MYRIAD_INIT(1u);
  float duration MYRIAD_INIT(0.0f);
  float inv_duration MYRIAD_INIT(0.0f);  // 0 for a one-frame clip
  float fps MYRIAD_INIT(30.0f);
  uint pad MYRIAD_INIT(0u);
};

// The two VAT rows a clip's local time falls between (absolute rows) and the weight of row1.
struct VatFrame {
  MYRIAD_GPU_TYPES
  uint row0 MYRIAD_INIT(0u);
  uint row1 MYRIAD_INIT(0u);
  float blend MYRIAD_INIT(0.0f);
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(CrowdEntity, 32, position, 0, yaw_scale, 12, type_clip, 16, time_offset, 20, speed, 24,
                    tint, 28);
MYRIAD_CHECK_LAYOUT(VatClipRuntime, 48, origin, 0, first_row, 12, step, 16, frames, 28, duration, 32,
                    inv_duration, 36, fps, 40, pad, 44);
MYRIAD_CHECK_LAYOUT(VatFrame, 12, row0, 0, row1, 4, blend, 8);
}  // namespace myriad::crowd
#endif

#endif  // MYRIAD_CROWD_CROWD_GPU_LAYOUT_H
