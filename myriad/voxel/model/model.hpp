// Baked models (article 000's fast path beside the surface atlas): a cell whose material is a model
// (fence, post, lamp, torch, slab, stairs; voxel/data/material.hpp) draws the model's template, a few
// axis-aligned boxes in the unit cell whose parts take the tiles of block materials (a fence's wood, a
// lamp's glass). The mesher writes their faces into the section mesh as plain polygons with light and
// texture in the vertex, so they are culled, sliced and shadowed as the terrain's pages are.
//
// A template is expanded once into variants: every quarter turn about +Y (the cell's form byte) and, for
// models that connect (fences), every set of horizontal neighbours they connect to. Faces of a variant
// that another of its boxes covers (a rail's end against the post) are dropped at expansion; faces on the
// cell's sides are dropped at meshing when the neighbour covers that side fully.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "myriad/core/math/math.hpp"
#include "myriad/voxel/data/material.hpp"

namespace myriad::voxel {

// A box of a template, in cell units (0..1). connect >= 0: the box exists only while the model connects
// towards that horizontal side (voxel::Face); -1: always.
struct ModelBox {
  glm::vec3 lo, hi;
  std::uint8_t material;  // a block material whose tiles the box's faces take
  std::int8_t connect;
};

struct ModelTemplate {
  const char* name;
  std::span<const ModelBox> boxes;
  bool turns;     // the form byte's quarter turn applies (stairs); false: one orientation
  bool connects;  // connects to neighbours (fences): connect boxes exist per neighbour
  const char* description;
};
const ModelTemplate& model_template(ModelKind kind);  // kind in [kModelFence, kModelKindCount)

// One rectangle of a variant: corners counter-clockwise seen from outside, in cell units.
struct ModelFace {
  std::array<glm::vec3, 4> corners;
  glm::vec3 normal;
  std::uint32_t packed_normal;  // octahedral (core/packing)
  std::uint8_t side;            // voxel::Face of the normal: which tile (top, side, bottom) it takes
  std::int8_t boundary;         // voxel::Face of the cell side the face lies on, or -1 inside the cell
  std::uint8_t material;        // whose tile
};

struct ModelVariant {
  std::span<const ModelFace> faces;
  std::span<const ModelBox> boxes;  // turned, connect boxes present or absent (what a pick tests)
};

// Connection bits: one per horizontal side, bit connection_bit(face).
constexpr unsigned connection_bit(int face) { return face < 2 ? unsigned(face) : unsigned(face - 2); }
inline constexpr int kHorizontalFaces[4] = {0, 1, 4, 5};  // -X, +X, -Z, +Z
inline constexpr unsigned kConnectionMasks = 16;

// The variant of model `kind` turned `turn` quarter turns (ignored unless the template turns) with
// connections `connections` (ignored unless it connects).
ModelVariant model_variant(ModelKind kind, int turn, unsigned connections);

// Whether a model of `kind` connects across side `face` to a neighbour cell holding (material, form): a
// fence connects to fences and to any block whose side facing it is full.
bool model_connects(ModelKind kind, int face, std::uint8_t neighbour_material, std::uint8_t neighbour_form);

// The connection mask of a model of `kind` from its four horizontal neighbours: read(face, material,
// form) fills the neighbour across `face` and returns false where there is none (outside, not loaded).
template <class Read>
unsigned model_connections(ModelKind kind, Read&& read) {
  unsigned connections = 0;
  for (const int face : kHorizontalFaces) {
    std::uint8_t material = 0, form = 0;
    if (read(face, material, form) && model_connects(kind, face, material, form))
      connections |= 1u << connection_bit(face);
  }
  return connections;
}

// The model of a material, kNoModel for blocks (and for invalid ids).
ModelKind model_of(std::uint8_t material);

}  // namespace myriad::voxel
