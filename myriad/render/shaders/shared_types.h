// Lets one header describe a buffer layout to both C++ and GLSL (scalar block layout in GLSL, plain
// structs in C++, sizes checked with static_assert on the C++ side).
#ifndef MYRIAD_SHARED_TYPES_H
#define MYRIAD_SHARED_TYPES_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include "myriad/core/math.hpp"
#define MYRIAD_SHADER_NAMESPACE_BEGIN namespace myriad::render::shader {
#define MYRIAD_SHADER_NAMESPACE_END }
MYRIAD_SHADER_NAMESPACE_BEGIN
using uint = std::uint32_t;
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using vec4 = glm::vec4;
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
MYRIAD_SHADER_NAMESPACE_END

#endif
