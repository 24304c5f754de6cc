// Layouts of GPU skinning (SPEC B4, B7), shared by C++ and GLSL: skinned vertices pulled from a
// storage buffer (with their UVs, vertex colour and material), the kit's materials, per-instance batch data
// (object-to-world rows + offset into the global palette buffer + offset into the batch's property floats),
// and the push constants of skin.vert.
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
  vec2 uv;     // the mesh's texture coordinate, (0, 0) when it has none
  uint flags;  // SKIN_HAS_UV | SKIN_TINTABLE | material index << SKIN_MATERIAL_SHIFT
  uint color;  // COLOR_0 (linear) as RGBA8, red in the low byte; white when the mesh has none
};
// SkinVertex::flags: uv holds the mesh's coordinates (textures and clothing patterns follow it; without
// it patterns follow the bind-pose position); the instance's tint multiplies the material; the part's
// entry in the kit's SkinMaterial table.
#define SKIN_HAS_UV 1u
#define SKIN_TINTABLE 2u
#define SKIN_MATERIAL_SHIFT 16u
#define SKIN_NO_TEXTURE 0xFFFFFFFFu
// One glTF material of a kit (binding 5 of skin.frag); base-colour textures are layers of the kit's
// one array texture (binding 6), sRGB-encoded.
struct SkinMaterial {
  vec4 base_color;     // linear base-colour factor, alpha included
  uint texture_layer;  // SKIN_NO_TEXTURE: none
  float alpha_cutoff;  // alpha below it is discarded; negative: opaque (alpha ignored)
  uint double_sided;   // 1: back faces drawn (with the normal flipped)
  uint wrap;           // UvWrapModes::packed(): 0 repeats (uv_wrap.glsl)
};
struct SkinInstance {
  vec4 rows[3];          // object-to-world, row-major 3x4
  uint palette_offset;   // first palette matrix of this renderer's character
  uint property_offset;  // first float of this instance's per-instance material properties
  uint fade;             // LOD cross-fade (batch::Batch::fade): q in bits 0-7, bit 8 incoming; 0 whole
};
struct SkinPush {
  mat4 view_proj;
  // Capture mode (tests): when capture_width != 0 each vertex becomes one point at pixel
  // capture_base + instance * capture_vertex_count + vertex, carrying its world position.
  uint capture_width;
  uint capture_height;
  uint capture_base;
  uint capture_vertex_count;
  // 1 + the float of the instance's properties that holds its pattern id (0..3, SPEC B2 clothing
  // `pattern`); 0 when the batch type has no pattern (plain). Pushed per batch type.
  uint pattern_float;
  // xyz: the unit vector towards the sun (FrameView::to_light) for the shading model (lighting.glsl);
  // w: unused.
  vec4 to_light;
  vec3 sun_color;  // FrameView::sun_color (the shading model reads the frame's light block's)
};
// skin_palette_upload.comp: rows [first_row, first_row + row_count) of the palette (3 rows a matrix).
struct SkinPaletteUploadPush {
  uint src_row;  // first row in the staging ring
  uint dst_row;  // first row in the palette buffer
  uint row_count;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(SkinVertex, 64, position, 0, normal, 12, joints01, 24, joints23, 28, weights, 32, uv, 48,
                    flags, 56, color, 60);
MYRIAD_CHECK_LAYOUT(SkinMaterial, 32, base_color, 0, texture_layer, 16, alpha_cutoff, 20, double_sided, 24,
                    wrap, 28);
MYRIAD_CHECK_LAYOUT(SkinInstance, 60, rows, 0, palette_offset, 48, property_offset, 52, fade, 56);
MYRIAD_CHECK_LAYOUT(SkinPush, 112, view_proj, 0, capture_width, 64, capture_height, 68, capture_base, 72,
                    capture_vertex_count, 76, pattern_float, 80, to_light, 84, sun_color, 100);
MYRIAD_CHECK_LAYOUT(SkinPaletteUploadPush, 12, src_row, 0, dst_row, 4, row_count, 8);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
