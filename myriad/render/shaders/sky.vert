#version 460
// The sky pass: one triangle covering the image at the far depth (reverse-Z 0), so with an EQUAL depth
// test it shades only pixels that no geometry covered (sky.frag).
layout(location = 0) out vec2 out_ndc;

void main() {
  vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
  out_ndc = p;
  gl_Position = vec4(p, 0.0, 1.0);
}
