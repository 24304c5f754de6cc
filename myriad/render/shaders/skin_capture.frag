#version 460
// Capture mode of skin.vert (tests): writes the skinned world position to an RGBA32F target.
layout(location = 2) flat in vec3 in_capture;
layout(location = 0) out vec4 out_value;

void main() { out_value = vec4(in_capture, 1.0); }
