#version 460
// The picked cell's outline: flat colour.
layout(location = 0) flat in vec3 in_color;
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(in_color, 1.0); }
