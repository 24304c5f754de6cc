#version 460
// ID pass of skin.vert: each pixel stores its instance's palette offset + 1 (one palette per avatar,
// so the offset names the avatar) in RGB8, little-endian; 0 stays background. Read back by tests.
layout(location = 3) flat in uint in_palette_offset;
layout(location = 0) out vec4 out_id;

void main() {
  const uint id = in_palette_offset + 1u;
  out_id = vec4(float(id & 255u), float((id >> 8) & 255u), float((id >> 16) & 255u), 255.0) / 255.0;
}
