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

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(TestRect, 24, min, 0, max, 8, depth, 16, color, 20);
MYRIAD_CHECK_LAYOUT(TestRectPush, 8, target_size, 0);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
