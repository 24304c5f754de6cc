#version 460
// Black with a smooth radial alpha: strength * (1 - d^2)^2 for d = distance / radius < 1. It is
// darkest at the centre and reaches 0 at the rim with zero slope, so the edge shows no ring.
// avatar_blob_alpha() in avatar_blob_shadow.cpp is the same formula on the CPU.
layout(location = 0) in vec2 in_disc;
layout(location = 1) flat in float in_strength;
layout(location = 0) out vec4 out_color;

void main() {
  float d2 = dot(in_disc, in_disc);
  if (d2 >= 1.0) discard;  // the quad's corners lie outside the disc
  float falloff = 1.0 - d2;
  out_color = vec4(0.0, 0.0, 0.0, in_strength * falloff * falloff);
}
