#version 460
// Skinned avatar parts: per-instance colour (skin tone or clothing tint) with simple sun shading.
// Clothing draws its pattern (property `pattern`: 0 plain, 1 horizontal stripes, 2 checks, 3 dots) in
// the tint and a second colour that contrasts with it; body parts have no pattern and stay plain.
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_color;
layout(location = 4) flat in vec2 in_pattern;  // x: pattern id; y: 1 when the cells come from UVs
layout(location = 5) in vec3 in_pattern_cell;
layout(location = 0) out vec4 out_color;

// Dot radius in cells. UV cells are 2D (skin.vert puts them at a cell centre in z): round dots a third
// of the cell's area. Positions cut a 3D lattice of balls, whose sections are smaller on average: a
// larger radius keeps them about as visible (a third of the surface covered, 4/3 pi r^3).
const float kDotUv = 0.35, kDotPosition = 0.42;

// 1 where pattern `id` shows its second colour at cell coordinate c, else 0. Stripes run across the
// cell grid's y (height for positions, along the bone for UVs); checks and dots are 3D, so positions
// need no projection onto the surface.
float pattern_mask(int id, vec3 c, float dot_radius) {
  if (id == 1) return mod(floor(c.y), 2.0);
  if (id == 2) return mod(floor(c.x) + floor(c.y) + floor(c.z), 2.0);
  return length(fract(c) - 0.5) < dot_radius ? 1.0 : 0.0;
}

void main() {
  // Derivatives in uniform control flow, before any branch: how many cells one pixel spans.
  const vec3 w = fwidth(in_pattern_cell);
  const vec3 tint = in_color.rgb;
  const int id = int(in_pattern.x + 0.5);
  vec3 base = tint;
  if (id != 0) {
    // A darker second colour on light cloth, a lighter one on dark cloth: visible on any tint.
    const float luma = dot(tint, vec3(0.299, 0.587, 0.114));
    const vec3 second = luma > 0.3 ? tint * 0.45 : mix(tint, vec3(1.0), 0.5);
    const bool uv = in_pattern.y > 0.5;
    const float radius = uv ? kDotUv : kDotPosition;
    // Cells narrower than about two pixels along the pattern's axes alias (shimmer, moire): fade to
    // the share of a cell the second colour covers on average.
    const float cells_per_pixel = id == 1 ? w.y : max(w.x, max(w.y, w.z));
    const float average =
        id == 3 ? (uv ? 3.14159 * radius * radius : 4.18879 * radius * radius * radius) : 0.5;
    const float m =
        mix(pattern_mask(id, in_pattern_cell, radius), average, smoothstep(0.3, 0.6, cells_per_pixel));
    base = mix(tint, second, m);
  }
  const vec3 sun = normalize(vec3(0.4, 0.8, 0.3));
  const float light = 0.35 + 0.65 * max(dot(normalize(in_normal), sun), 0.0);
  out_color = vec4(base * light, 1.0);
}
