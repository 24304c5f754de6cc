// Lets one header describe a buffer layout to both C++ and GLSL (scalar block layout in GLSL, plain
// structs in C++ in namespace myriad::render::shader). Every *_layout.h here pins, on the C++ side, each
// struct's size and the offset of each of its fields (MYRIAD_CHECK_LAYOUT from core/layout/gpu_layout.h).
#ifndef MYRIAD_SHARED_TYPES_H
#define MYRIAD_SHARED_TYPES_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include "myriad/core/layout/gpu_layout.h"
#include "myriad/core/math/math.hpp"
#define MYRIAD_SHADER_NAMESPACE_BEGIN namespace myriad::render::shader {
#define MYRIAD_SHADER_NAMESPACE_END }
MYRIAD_SHADER_NAMESPACE_BEGIN
using uint = std::uint32_t;
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using vec4 = glm::vec4;
using uvec2 = glm::uvec2;
using mat4 = glm::mat4;
MYRIAD_SHADER_NAMESPACE_END
#else
#define MYRIAD_SHADER_NAMESPACE_BEGIN
#define MYRIAD_SHADER_NAMESPACE_END
#endif

MYRIAD_SHADER_NAMESPACE_BEGIN
// Same bytes as VkDrawIndirectCommand.
struct DrawCommand {
  uint vertex_count;
  uint instance_count;
  uint first_vertex;
  uint first_instance;
};
// Same bytes as VkDrawIndexedIndirectCommand.
struct DrawIndexedCommand {
  uint index_count;
  uint instance_count;
  uint first_index;
  int vertex_offset;
  uint first_instance;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(DrawCommand, 16, vertex_count, 0, instance_count, 4, first_vertex, 8, first_instance, 12);
MYRIAD_CHECK_LAYOUT(DrawIndexedCommand, 20, index_count, 0, instance_count, 4, first_index, 8, vertex_offset,
                    12, first_instance, 16);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
