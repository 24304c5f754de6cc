// The built-in model templates (sizes in sixteenths of a cell, as block games draw them) and their
// variants, expanded once on first use.
#include "myriad/voxel/model/model.hpp"

#include <algorithm>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr float s(float sixteenths) { return sixteenths / 16.0f; }
constexpr ModelBox box(float x0, float y0, float z0, float x1, float y1, float z1, std::uint8_t material,
                       std::int8_t connect = -1) {
  return {{s(x0), s(y0), s(z0)}, {s(x1), s(y1), s(z1)}, material, connect};
}

// A post with two rails towards each side it connects to; rails end on the cell side, where the
// neighbour's rail (or the full side of a block) continues them.
constexpr ModelBox kFence[] = {
    box(6, 0, 6, 10, 16, 10, kWood),       box(0, 12, 7, 6, 15, 9, kWood, kNegX),
    box(0, 6, 7, 6, 9, 9, kWood, kNegX),   box(10, 12, 7, 16, 15, 9, kWood, kPosX),
    box(10, 6, 7, 16, 9, 9, kWood, kPosX), box(7, 12, 0, 9, 15, 6, kWood, kNegZ),
    box(7, 6, 0, 9, 9, 6, kWood, kNegZ),   box(7, 12, 10, 9, 15, 16, kWood, kPosZ),
    box(7, 6, 10, 9, 9, 16, kWood, kPosZ),
};
constexpr ModelBox kPost[] = {box(5, 0, 5, 11, 16, 11, kWood)};
// A street lamp: a stone foot, a thin post, a glowing lantern under a wooden cap.
constexpr ModelBox kLampBoxes[] = {
    box(5, 0, 5, 11, 2, 11, kStoneBrick),
    box(7, 2, 7, 9, 10, 9, kWood),
    box(5, 10, 5, 11, 15, 11, kLampWarm),
    box(4, 15, 4, 12, 16, 12, kWood),
};
constexpr ModelBox kTorchBoxes[] = {
    box(7, 0, 7, 9, 9, 9, kWood),
    box(6, 9, 6, 10, 12, 10, kLampWarm),
};
constexpr ModelBox kSlabBoxes[] = {box(0, 0, 0, 16, 8, 16, kStoneBrick)};
// Unturned, the step's high side is at x = 0 (as the placeable slopes rise towards -X).
constexpr ModelBox kStairsBoxes[] = {
    box(0, 0, 0, 16, 8, 16, kStoneBrick),
    box(0, 8, 0, 8, 16, 16, kStoneBrick),
};

const ModelTemplate kTemplates[kModelKindCount] = {
    {"none", {}, false, false, ""},
    {"fence", kFence, false, true, "a post whose rails join fences and full block sides beside it"},
    {"post", kPost, false, false, "a thick wooden post"},
    {"lamp", kLampBoxes, false, false, "a street lamp whose lantern lights its surroundings"},
    {"torch", kTorchBoxes, false, false, "a standing torch that lights its surroundings"},
    {"slab", kSlabBoxes, false, false, "the lower half of a cell"},
    {"stairs", kStairsBoxes, true, false, "a step whose high side is at -X, turned by the cell's turn"},
};

// rotate_corner_y on a point of the cell: (x, z) -> (z, 1 - x).
glm::vec3 turn_point(glm::vec3 p) { return {p.z, p.y, 1.0f - p.x}; }

ModelBox turn_box(const ModelBox& b, int turns) {
  ModelBox out = b;
  for (int i = 0; i < turns; ++i) {
    const glm::vec3 a = turn_point(out.lo), c = turn_point(out.hi);
    out.lo = glm::min(a, c);
    out.hi = glm::max(a, c);
  }
  return out;
}

// The face of `b` on side `face`, counter-clockwise seen from outside.
ModelFace box_face(const ModelBox& b, int face) {
  const int a = face_axis(face), p = side_axis_p(face), q = side_axis_q(face);
  const bool positive = face_positive(face);
  auto corner = [&](float up, float uq) {
    glm::vec3 c;
    c[a] = positive ? b.hi[a] : b.lo[a];
    c[p] = up;
    c[q] = uq;
    return c;
  };
  ModelFace f{};
  if (positive)
    f.corners = {corner(b.lo[p], b.lo[q]), corner(b.hi[p], b.lo[q]), corner(b.hi[p], b.hi[q]),
                 corner(b.lo[p], b.hi[q])};
  else
    f.corners = {corner(b.lo[p], b.lo[q]), corner(b.lo[p], b.hi[q]), corner(b.hi[p], b.hi[q]),
                 corner(b.hi[p], b.lo[q])};
  f.normal = glm::vec3(face_direction(face));
  f.packed_normal = pack_octahedral(f.normal);
  f.side = std::uint8_t(face);
  const float plane = f.corners[0][a];
  f.boundary = std::int8_t((positive && plane == 1.0f) || (!positive && plane == 0.0f) ? face : -1);
  f.material = b.material;
  return f;
}

// True when box `other` has a face opposite to `f`'s, on its plane, containing it: the two touch there
// and neither can be seen.
bool covered_by(const ModelFace& f, const ModelBox& other) {
  const int a = face_axis(f.side), p = side_axis_p(f.side), q = side_axis_q(f.side);
  const float plane = f.corners[0][a];
  const float other_plane = face_positive(f.side) ? other.lo[a] : other.hi[a];
  if (plane != other_plane) return false;
  const glm::vec3 lo = glm::min(f.corners[0], f.corners[2]), hi = glm::max(f.corners[0], f.corners[2]);
  return other.lo[p] <= lo[p] && hi[p] <= other.hi[p] && other.lo[q] <= lo[q] && hi[q] <= other.hi[q];
}

struct Range {
  std::uint32_t first = 0, count = 0;
};

struct ModelLut {
  std::vector<ModelFace> faces;
  std::vector<ModelBox> boxes;
  // [kind][turn][connections]; turns and connections a template ignores repeat its one variant.
  Range face_range[kModelKindCount][4][kConnectionMasks];
  Range box_range[kModelKindCount][4][kConnectionMasks];
};

ModelLut build_lut() {
  ModelLut lut;
  for (int kind = 1; kind < kModelKindCount; ++kind) {
    const ModelTemplate& t = kTemplates[kind];
    for (int turn = 0; turn < (t.turns ? 4 : 1); ++turn)
      for (unsigned conn = 0; conn < (t.connects ? kConnectionMasks : 1u); ++conn) {
        const auto first_box = std::uint32_t(lut.boxes.size());
        for (const ModelBox& b : t.boxes)
          if (b.connect < 0 || (conn >> connection_bit(b.connect) & 1u))
            lut.boxes.push_back(turn_box(b, turn));
        const std::span<const ModelBox> boxes(lut.boxes.data() + first_box, lut.boxes.size() - first_box);
        const auto first_face = std::uint32_t(lut.faces.size());
        for (const ModelBox& b : boxes)
          for (int face = 0; face < kFaceCount; ++face) {
            const ModelFace f = box_face(b, face);
            // A rail's end on its connect side meets the neighbour's rail or full side.
            if (b.connect >= 0 && f.boundary == b.connect) continue;
            bool hidden = false;
            for (const ModelBox& other : boxes)
              if (&other != &b && covered_by(f, other)) hidden = true;
            if (!hidden) lut.faces.push_back(f);
          }
        const Range faces{first_face, std::uint32_t(lut.faces.size()) - first_face};
        const Range box_span{first_box, std::uint32_t(boxes.size())};
        // Fill every (turn, conn) key this variant answers.
        for (int k_turn = 0; k_turn < 4; ++k_turn)
          for (unsigned k_conn = 0; k_conn < kConnectionMasks; ++k_conn)
            if ((t.turns ? k_turn == turn : turn == 0) && (t.connects ? k_conn == conn : conn == 0)) {
              lut.face_range[kind][k_turn][k_conn] = faces;
              lut.box_range[kind][k_turn][k_conn] = box_span;
            }
      }
  }
  return lut;
}

const ModelLut& model_lut() {
  static const ModelLut lut = build_lut();
  return lut;
}

}  // namespace

const ModelTemplate& model_template(ModelKind kind) {
  if (kind == kNoModel || kind >= kModelKindCount)
    throw Error("no model template " + std::to_string(int(kind)), "voxel::model_template");
  return kTemplates[kind];
}

ModelVariant model_variant(ModelKind kind, int turn, unsigned connections) {
  if (kind >= kModelKindCount) return {};
  const ModelLut& lut = model_lut();
  const Range f = lut.face_range[kind][turn & 3][connections & 0xFu];
  const Range b = lut.box_range[kind][turn & 3][connections & 0xFu];
  return {{lut.faces.data() + f.first, f.count}, {lut.boxes.data() + b.first, b.count}};
}

bool model_connects(ModelKind kind, int face, std::uint8_t neighbour_material, std::uint8_t neighbour_form) {
  if (!kTemplates[kind].connects) return false;
  if (model_of(neighbour_material) == kind) return true;
  if (neighbour_material == kAir || is_model_material(neighbour_material)) return false;
  return (shape_lut().shapes[neighbour_form].full_sides >> opposite(face) & 1u) != 0;
}

ModelKind model_of(std::uint8_t material) {
  return valid_material(material) ? materials()[material].model : kNoModel;
}

}  // namespace myriad::voxel
