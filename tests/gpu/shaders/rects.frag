#version 460
layout(location = 0) flat in uint in_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = unpackUnorm4x8(in_color); }
