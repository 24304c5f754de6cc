// Voxel shapes: the formByte (bit i = corner i of the cell; cleared = corner cut in), the named corner and
// face numbering, and the geometry LUT built once for all 256 bytes. The mesher indexes these tables by the
// byte and never rebuilds a shape in its hot loop (SPEC V1, V2).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/math/math.hpp"

namespace myriad::voxel {

// Corner i sits at (x, y, z) = (i & 1, i >> 2 & 1, i >> 1 & 1): bits 0-3 are the bottom corners (y = 0),
// bits 4-7 the top ones.
enum Corner : std::uint8_t {
  kCornerX0Y0Z0 = 0,
  kCornerX1Y0Z0 = 1,
  kCornerX0Y0Z1 = 2,
  kCornerX1Y0Z1 = 3,
  kCornerX0Y1Z0 = 4,
  kCornerX1Y1Z0 = 5,
  kCornerX0Y1Z1 = 6,
  kCornerX1Y1Z1 = 7,
};
inline constexpr int kCornerCount = 8;
constexpr glm::ivec3 corner_offset(int corner) { return {corner & 1, corner >> 2 & 1, corner >> 1 & 1}; }
constexpr int corner_index(int x, int y, int z) { return x | z << 1 | y << 2; }

// Cube sides: axis = face >> 1 (0 x, 1 y, 2 z), positive side when face & 1.
enum Face : std::uint8_t { kNegX = 0, kPosX = 1, kNegY = 2, kPosY = 3, kNegZ = 4, kPosZ = 5 };
inline constexpr int kFaceCount = 6;
constexpr int face_axis(int face) { return face >> 1; }
constexpr bool face_positive(int face) { return (face & 1) != 0; }
constexpr int opposite(int face) { return face ^ 1; }
constexpr glm::ivec3 face_direction(int face) {
  glm::ivec3 d{0, 0, 0};
  d[face_axis(face)] = face_positive(face) ? 1 : -1;
  return d;
}
// The two in-plane axes of a side in a fixed order shared by both signs, so that the side masks of two
// touching cells compare directly: p = (axis + 1) % 3, q = (axis + 2) % 3; p x q = +axis.
constexpr int side_axis_p(int face) { return (face_axis(face) + 1) % 3; }
constexpr int side_axis_q(int face) { return (face_axis(face) + 2) % 3; }

inline constexpr std::uint8_t kFormEmpty = 0;
inline constexpr std::uint8_t kFormFull = 255;

// Side coverage is kept in quarters of the unit square (the triangles between its centre and each edge),
// because a triangle minus an overlapping triangle of the neighbour is one quarter. Bit k of a quarter
// mask: quarter touching edge p = 0 (k 0), p = 1 (k 1), q = 0 (k 2), q = 1 (k 3). 0xF = full side.
inline constexpr std::uint8_t kQuartersFull = 0xF;

// One polygon of a shape: an outer polygon on a cube side, or an inner (cut) plane.
struct PlaneTemplate {
  std::uint8_t count = 0;                 // 3 or 4 corners
  std::array<std::uint8_t, 4> corners{};  // corner ids, counter-clockwise seen from outside
  std::int8_t side = -1;                  // Face of an outer polygon, -1 for an inner plane
  std::uint8_t light_side = 0;            // Face whose neighbourhood gives light and AO (and UV plane)
  std::int8_t merge_axis = -1;      // inner rectangles: the axis of their cell edges (may merge), else -1
  std::uint8_t corner_mask = 0;     // bit per corner on the polygon (contacts)
  glm::vec3 normal{0.0f};           // unit outward normal
  std::uint32_t packed_normal = 0;  // octahedral (core/packing)
};

struct ShapeInfo {
  std::uint16_t first_plane = 0;  // range in ShapeLut::planes: outer polygons first, then inner
  std::uint8_t outer_count = 0;
  std::uint8_t inner_count = 0;
  std::array<std::uint8_t, kFaceCount> side_quarters{};  // quarter mask of the polygon on each side
  std::uint8_t full_sides = 0;                           // bit f: side f fully covered
  std::uint8_t any_sides = 0;                            // bit f: some polygon on side f
  bool solid = false;         // set corners span a volume; otherwise the byte has no geometry
  bool light_opaque = false;  // full cube: blocks light (cut shapes let light through)
  float volume = 0.0f;        // of the convex hull of the set corners
  // Occlusion per corner, in quarters (0..4): the part of the corner's octant (the half-size cube of the
  // cell at that corner) inside the shape, rounded to quarters. A vertex at that corner of the cell is
  // darkened by this much (shade.hpp): full cube 4 everywhere, a 45-degree wedge 4 under its high edge,
  // 2 under its low edge and at its top edge, 0 at its cut corners.
  std::array<std::uint8_t, kCornerCount> ao_quarters{};
};

// Compact per-byte flags for the shading loops.
inline constexpr std::uint8_t kShadeOpaque = 2;  // ShapeInfo::light_opaque
inline constexpr std::uint8_t kShadeSolid = 4;   // ShapeInfo::solid
inline constexpr int kAoQuartersFull = 4;        // ao_quarters of a corner the shape fills

struct ShapeLut {
  std::array<ShapeInfo, 256> shapes{};
  std::array<std::uint8_t, 256> shade_flags{};
  // ShapeInfo::ao_quarters packed 4 bits per corner (corner c at bits 4c) for the shading loops.
  std::array<std::uint32_t, 256> ao_corners{};
  std::vector<PlaneTemplate> planes;
  // Outer polygon of each byte on each side, or -1: index into planes.
  std::array<std::array<std::int16_t, kFaceCount>, 256> side_plane{};

  std::span<const PlaneTemplate> all_planes(std::uint8_t form) const {
    const ShapeInfo& s = shapes[form];
    return {planes.data() + s.first_plane, std::size_t(s.outer_count) + s.inner_count};
  }
  std::span<const PlaneTemplate> inner_planes(std::uint8_t form) const {
    const ShapeInfo& s = shapes[form];
    return {planes.data() + s.first_plane + s.outer_count, s.inner_count};
  }
  // The polygon of `form` whose normal is within ~1e-4 of `normal`, or nullptr.
  const PlaneTemplate* plane_with_normal(std::uint8_t form, glm::vec3 normal) const;
};

// Built on first use (thread-safe), then immutable. Rule: the shape of byte b is the convex hull of its
// set corners; outer polygons are the hull's facets on the cube sides, inner planes the other facets.
// Bytes whose set corners do not span a volume (fewer than 4 non-coplanar corners) have no geometry.
const ShapeLut& shape_lut();

// Rotates a form byte a quarter turn about +Y (right-handed: +X goes to -Z), about the cell centre.
std::uint8_t rotate_form_y(std::uint8_t form);
glm::ivec3 rotate_corner_y(glm::ivec3 corner);  // the same turn for a corner offset (0/1 per axis)

// Side-local (p, q) in 0/1 of corner `corner` on side `face`'s square, as a bit index p | q << 1.
constexpr int side_corner_bit(int face, int corner) {
  const glm::ivec3 c = corner_offset(corner);
  return c[side_axis_p(face)] | c[side_axis_q(face)] << 1;
}

}  // namespace myriad::voxel
