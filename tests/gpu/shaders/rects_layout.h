// Layout of the indirect-draw test's rectangles, shared by the test and its shaders.
#ifndef MYRIAD_TEST_RECTS_LAYOUT_H
#define MYRIAD_TEST_RECTS_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// An axis-aligned rectangle in pixels (integer corners, so coverage of pixel centres is exact).
struct TestRect {
  vec2 min;
  vec2 max;
  float depth;  // reverse-Z: larger is nearer
  uint color;   // RGBA8
};
struct TestRectPush {
  vec2 target_size;
};
MYRIAD_SHADER_NAMESPACE_END

#endif
