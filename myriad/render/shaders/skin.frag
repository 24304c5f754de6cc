#version 460
// Skinned avatar parts: per-instance colour (skin tone or clothing tint) with simple sun shading.
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main() {
  const vec3 sun = normalize(vec3(0.4, 0.8, 0.3));
  const float light = 0.35 + 0.65 * max(dot(normalize(in_normal), sun), 0.0);
  out_color = vec4(in_color.rgb * light, 1.0);
}
