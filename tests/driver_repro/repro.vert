#version 450
layout(set = 0, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(push_constant) uniform Push { mat4 view_proj; vec4 sun; float time; uint type, lod, flat_color; } pc;
layout(location = 0) out vec3 world;
void main() { world = p[gl_VertexIndex].xyz; gl_Position = pc.view_proj * vec4(world, 1.0); }
