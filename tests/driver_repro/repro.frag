#version 450
// Compiled twice (see CMakeLists.txt). With -DBRANCH the shader branches on a uniform-buffer value, which
// Mesa 22.3's lavapipe inlines into a new shader variant, never freed, at each draw after a push-descriptor
// update; without it the same result comes from mix(): no branch on a uniform, nothing inlined, flat RSS.
layout(set = 0, binding = 0) uniform Params { vec4 color; float shadowed; } ubo;
layout(location = 0) out vec4 color;
float filtered() {  // some work: lavapipe only inlines uniforms into shaders of more than ~100 NIR values
  float sum = 0.0;
  for (int y = -2; y <= 2; ++y)
    for (int x = -2; x <= 2; ++x) sum += sin(dot(ubo.color, vec4(x, y, gl_FragCoord.xy)));
  return sum / 25.0;
}
void main() {
#ifdef BRANCH
  float visibility = 1.0;
  if (ubo.shadowed != 0.0) visibility = filtered();
#else
  float visibility = mix(1.0, filtered(), float(ubo.shadowed != 0.0));
#endif
  color = ubo.color * visibility;
}
