#version 450
// One triangle covering the 64x64 target; no vertex buffers.
void main() { gl_Position = vec4(vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 4.0 - 1.0, 0.0, 1.0); }
