#version 450
layout(set = 0, binding = 1) uniform sampler2D base_color;
layout(set = 0, binding = 2) uniform Shadow { mat4 light_view_proj; vec4 to_light; vec4 texel; } shadow;
layout(set = 0, binding = 3) uniform sampler2DShadow shadow_map;
layout(push_constant) uniform Push { mat4 view_proj; vec4 sun; float time; uint type, lod, flat_color; } pc;
layout(location = 0) in vec3 world;
layout(location = 0) out vec4 color;
float visibility() {
  if (shadow.to_light.w == 0.0) return 1.0;
  vec4 clip = shadow.light_view_proj * vec4(world, 1.0);
  vec2 uv = clip.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return 1.0;
  float sum = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) sum += texture(shadow_map, vec3(uv + vec2(x, y) * shadow.texel.z, clip.z));
  return sum / 9.0;
}
void main() {
  vec3 albedo = pc.flat_color != 0u ? vec3(float(pc.lod)) : texture(base_color, world.xz).rgb;
  color = vec4(albedo * (visibility() + pc.sun.w), 1.0);
}
