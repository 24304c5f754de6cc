// Layouts of GPU skinning (SPEC B4, B7), shared by C++ and GLSL: skinned vertices pulled from a
// storage buffer, per-instance batch data (object-to-world rows + offset into the global palette
// buffer + offset into the batch's property floats), and the push constants of skin.vert.
#ifndef MYRIAD_SKIN_LAYOUT_H
#define MYRIAD_SKIN_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct SkinVertex {
  vec3 position;
  vec3 normal;
  uint joints01;  // joint 0 in the low 16 bits, joint 1 in the high (renderer-skeleton indices)
  uint joints23;
  vec4 weights;
};
struct SkinInstance {
  vec4 rows[3];          // object-to-world, row-major 3x4
  uint palette_offset;   // first palette matrix of this renderer's character
  uint property_offset;  // first float of this instance's per-instance material properties
};
struct SkinPush {
  mat4 view_proj;
  // Capture mode (tests): when capture_width != 0 each vertex becomes one point at pixel
  // capture_base + instance * capture_vertex_count + vertex, carrying its world position.
  uint capture_width;
  uint capture_height;
  uint capture_base;
  uint capture_vertex_count;
};
// skin_palette_upload.comp: rows [first_row, first_row + row_count) of the palette (3 rows a matrix).
struct SkinPaletteUploadPush {
  uint first_row;
  uint row_count;
  uint row_capacity;  // rows both the staging and the palette buffer hold
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::SkinVertex) == 48);
static_assert(sizeof(myriad::render::shader::SkinInstance) == 56);
static_assert(sizeof(myriad::render::shader::SkinPush) == 80);
static_assert(sizeof(myriad::render::shader::SkinPaletteUploadPush) == 12);
#endif

#endif
