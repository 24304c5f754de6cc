// Where a vertex of a tree's template lands: scaled by the tree's height and swayed by the offset of
// this frame's wind (growing with height above the rigid base: the root stays put, the crown moves
// most). Shared by the camera's draw and the shadow pass so a tree and its shadow sway alike.
float tree_height(TreeInstance t) { return float(t.type_height >> 16) / 16.0; }

// The template vertex `vertex` of tree `t` (templates lie `stride` vertices apart; a template id past
// the buffer reads the last template).
uint tree_template_vertex(TreeInstance t, uint vertex, uint stride, uint vertices) {
  uint templates = max(vertices / max(stride, 1u), 1u);
  return min(t.type_height & 0xFFFFu, templates - 1u) * stride + vertex;
}

vec3 tree_vertex_world(TreeInstance t, TreeVertexGpu v, vec2 sway_offset) {
  vec3 local = v.position.xyz * tree_height(t);
  float above = max(v.position.y - MYRIAD_TREE_RIGID_HEIGHT, 0.0) / (1.0 - MYRIAD_TREE_RIGID_HEIGHT);
  float bend = above * above;
  return vec3(t.px, t.py, t.pz) + local + vec3(sway_offset.x, 0.0, sway_offset.y) * bend;
}
