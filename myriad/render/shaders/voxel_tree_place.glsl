// Where a vertex of the tree template lands for one tree: scaled by the tree's height and swayed by the
// offset of this frame's wind (growing with height: the root stays put, the crown moves most). Shared
// by the camera's draw and the shadow pass so a tree and its shadow sway alike.
float tree_height(TreeInstance t) { return float(t.type_height >> 16) / 16.0; }

vec3 tree_vertex_world(TreeInstance t, TreeVertexGpu v, vec2 sway_offset) {
  vec3 local = v.position.xyz * tree_height(t);
  float bend = v.position.y * v.position.y;
  return vec3(t.px + 0.5, t.py, t.pz + 0.5) + local + vec3(sway_offset.x, 0.0, sway_offset.y) * bend;
}
