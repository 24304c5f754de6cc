// Lets one plain header describe a GPU buffer layout to both C++ and GLSL (scalar block layout), so a
// struct has one definition: C++ writes arrays of it, shaders read them as they are. A struct opens
// with MYRIAD_GPU_TYPES (GLSL's type names as member aliases in C++), MYRIAD_INIT(v) gives a field a
// C++ default (GLSL has none), and after it, under #ifdef __cplusplus, MYRIAD_CHECK_LAYOUT pins its
// size and the byte offset of every field. Included by C++ as
// "myriad/core/layout/gpu_layout.h" and by GLSL (include root myriad/) as "core/layout/gpu_layout.h".
#ifndef MYRIAD_CORE_GPU_LAYOUT_H
#define MYRIAD_CORE_GPU_LAYOUT_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

#include "myriad/core/math/math.hpp"

#define MYRIAD_GPU_TYPES      \
  using uint = std::uint32_t; \
  using vec2 = glm::vec2;     \
  using vec3 = glm::vec3;     \
  using vec4 = glm::vec4;     \
  using uvec2 = glm::uvec2;
#define MYRIAD_INIT(value) = value
// The layout is the contract with the shaders: a field that moves fails the build, naming it.
#define MYRIAD_CHECK_FIELD(type, field, offset)    \
  static_assert(offsetof(type, field) == (offset), \
                "GPU layout: " #type "::" #field " is not at byte " #offset)
// MYRIAD_CHECK_LAYOUT(type, size, field, offset, field, offset, ...): the size and every field's offset
// (MYRIAD_CHECK_FIELD, up to 16 fields) of one struct in one statement.
#define MYRIAD_CHECK_LAYOUT(type, size, ...)                                             \
  static_assert(sizeof(type) == (size), "GPU layout: " #type " is not " #size " bytes"); \
  MYRIAD_LAYOUT_RESCAN(MYRIAD_LAYOUT_FIELDS(type, __VA_ARGS__))
// One MYRIAD_CHECK_FIELD per (field, offset) pair: each rescan expands the next pair.
#define MYRIAD_LAYOUT_FIELDS(type, field, offset, ...) \
  MYRIAD_CHECK_FIELD(type, field, offset)              \
  __VA_OPT__(; MYRIAD_LAYOUT_FIELDS_NEXT MYRIAD_LAYOUT_PARENS(type, __VA_ARGS__))
#define MYRIAD_LAYOUT_FIELDS_NEXT() MYRIAD_LAYOUT_FIELDS
#define MYRIAD_LAYOUT_PARENS ()
#define MYRIAD_LAYOUT_RESCAN(...) \
  MYRIAD_LAYOUT_RESCAN4(MYRIAD_LAYOUT_RESCAN4(MYRIAD_LAYOUT_RESCAN4(MYRIAD_LAYOUT_RESCAN4(__VA_ARGS__))))
#define MYRIAD_LAYOUT_RESCAN4(...) \
  MYRIAD_LAYOUT_RESCAN1(MYRIAD_LAYOUT_RESCAN1(MYRIAD_LAYOUT_RESCAN1(MYRIAD_LAYOUT_RESCAN1(__VA_ARGS__))))
#define MYRIAD_LAYOUT_RESCAN1(...) __VA_ARGS__
#else
#define MYRIAD_GPU_TYPES
#define MYRIAD_INIT(value)
#endif

#endif  // MYRIAD_CORE_GPU_LAYOUT_H
