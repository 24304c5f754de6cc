// Voxel DDA (Amanatides and Woo): the ray is clipped to the world's box, then steps from cell to cell
// across the nearest cell boundary; in each solid cell the ray segment is clipped by the half-spaces of the
// shape's planes (the cell's box plus the hull's cut planes), so the hit is the entry into the hull. A baked
// model's cell is hit where the ray enters one of its boxes (as drawn: turned, rails where it connects).
#include "myriad/voxel/edit/pick.hpp"

#include <cmath>
#include <limits>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/data/world.hpp"
#include "myriad/voxel/model/model.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::voxel {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool finite(glm::dvec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The face of the cell box a ray along `dir` enters through when it enters across `axis`.
int entry_face(int axis, double dir) { return axis * 2 + (dir > 0.0 ? 0 : 1); }

// The face a ray starting inside a box is taken to enter through: the one facing back along its main axis.
int inside_entry_face(glm::dvec3 dir) {
  int main_axis = 0;
  for (int a = 1; a < 3; ++a)
    if (std::abs(dir[a]) > std::abs(dir[main_axis])) main_axis = a;
  return entry_face(main_axis, dir[main_axis]);
}

// The ray's entry into the hull of `form` inside cell `cell`, within [t0, t1] (the segment inside the
// cell, entering the cell's box across `face0` at t0). False when it misses the hull.
bool enter_shape(std::uint8_t form, glm::ivec3 cell, glm::dvec3 origin, glm::dvec3 dir, double t0, double t1,
                 int face0, double& t_hit, int& face, glm::vec3& normal) {
  t_hit = t0;
  face = face0;
  normal = glm::vec3(face_direction(face0));
  if (form == kFormFull) return true;
  const glm::dvec3 local = origin - glm::dvec3(cell);
  for (const PlaneTemplate& plane : shape_lut().inner_planes(form)) {
    // Inside: n . (p - c) <= 0, with c a corner of the plane.
    const glm::dvec3 n(plane.normal);
    const double s0 = glm::dot(n, local - glm::dvec3(corner_offset(plane.corners[0])));
    const double rate = glm::dot(n, dir);
    if (rate == 0.0) {
      if (s0 > 0.0) return false;
      continue;
    }
    const double t = -s0 / rate;
    if (rate < 0.0) {  // entering the half-space
      if (t > t_hit) {
        t_hit = t;
        normal = plane.normal;
        face = plane.light_side;
      }
    } else if (t < t1) {
      t1 = t;
    }
    if (t_hit > t1) return false;
  }
  // Outer polygons lie on the cell's sides, which the box already bounds; a side the hull does not cover
  // fully is bounded by the inner planes next to it.
  return true;
}

// The ray's entry into the boxes of the model in `cell` within [t0, t1]: the nearest box entered (slab
// test per box). False when it passes between them.
bool enter_model(const PickCells& cells, std::uint8_t material, std::uint8_t form, glm::ivec3 cell,
                 glm::dvec3 origin, glm::dvec3 dir, double t0, double t1, double& t_hit, int& face,
                 glm::vec3& normal) {
  const ModelKind kind = model_of(material);
  const unsigned connections = model_connections(kind, [&](int side, std::uint8_t& nm, std::uint8_t& nf) {
    const glm::ivec3 n = cell + face_direction(side);
    if (glm::any(glm::lessThan(n, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(n, cells.size)))
      return false;
    return cells.read(n, nm, nf) == CellLookup::kCell;
  });
  const glm::dvec3 local = origin - glm::dvec3(cell);
  bool hit = false;
  for (const ModelBox& b : model_variant(kind, form, connections).boxes) {
    double lo = t0, hi = t1;
    int entry = -1;
    for (int a = 0; a < 3 && lo <= hi; ++a) {
      if (dir[a] == 0.0) {
        if (local[a] < double(b.lo[a]) || local[a] > double(b.hi[a])) hi = lo - 1.0;
        continue;
      }
      double ta = (double(b.lo[a]) - local[a]) / dir[a], tb = (double(b.hi[a]) - local[a]) / dir[a];
      if (ta > tb) std::swap(ta, tb);
      if (ta > lo) lo = ta, entry = entry_face(a, dir[a]);
      hi = std::min(hi, tb);
    }
    if (lo > hi || (hit && lo >= t_hit)) continue;
    hit = true;
    t_hit = lo;
    if (entry < 0) entry = inside_entry_face(dir);  // the ray starts inside the box
    face = entry;
    normal = glm::vec3(face_direction(entry));
  }
  return hit;
}

}  // namespace

PickCells pick_cells(const World& world) {
  return {world.size(), [&world](glm::ivec3 p, std::uint8_t& material, std::uint8_t& form) {
            const std::size_t i = world.index(p);
            material = world.materials()[i];
            form = world.forms()[i];
            return CellLookup::kCell;
          }};
}

PickCells pick_cells(const StreamWorld& world) {
  return {world.options().world_size, [&world](glm::ivec3 p, std::uint8_t& material, std::uint8_t& form) {
            const glm::ivec2 column{p.x >> 4, p.z >> 4};
            const std::span<const std::uint8_t> materials = world.column_materials(column);
            if (materials.empty()) return CellLookup::kUnloaded;
            const std::size_t i =
                std::size_t(p.y >> 4) * kSectionCells + std::size_t(cell_index(p.x & 15, p.y & 15, p.z & 15));
            material = materials[i];
            form = world.column_forms(column)[i];
            return CellLookup::kCell;
          }};
}

const char* pick_stop_name(PickStop stop) {
  switch (stop) {
    case PickStop::kHit:
      return "hit";
    case PickStop::kRange:
      return "out of range";
    case PickStop::kMissed:
      return "left the world";
    case PickStop::kUnloaded:
      return "not loaded";
  }
  return "?";
}

PickResult pick_voxel(const PickCells& cells, glm::dvec3 origin, glm::dvec3 direction, double max_distance) {
  if (!finite(origin)) throw Error("the ray's origin is not finite", "pick_voxel");
  const double length = glm::length(direction);
  if (!finite(direction) || !(length > 0.0))
    throw Error("the ray's direction is zero or not finite", "pick_voxel");
  if (!(max_distance > 0.0) || !std::isfinite(max_distance))
    throw Error("the pick distance must be positive and finite", "pick_voxel");
  const glm::dvec3 dir = direction / length;
  const glm::dvec3 size(cells.size);

  // Clip [0, max_distance] to the world's box; remember the axis the ray enters across.
  double t_enter = 0.0, t_leave = max_distance;
  int enter_axis = -1;
  for (int a = 0; a < 3; ++a) {
    if (dir[a] == 0.0) {
      if (origin[a] < 0.0 || origin[a] > size[a]) return {};
      continue;
    }
    double ta = (0.0 - origin[a]) / dir[a], tb = (size[a] - origin[a]) / dir[a];
    if (ta > tb) std::swap(ta, tb);
    if (ta > t_enter) {
      t_enter = ta;
      enter_axis = a;
    }
    t_leave = std::min(t_leave, tb);
  }
  PickResult result;
  if (t_enter > t_leave) {
    result.stop = t_enter > max_distance ? PickStop::kRange : PickStop::kMissed;
    return result;
  }

  // The first cell: the one holding the entry point, nudged along the ray off boundaries it lies on.
  const glm::dvec3 start = origin + dir * t_enter;
  glm::ivec3 cell;
  for (int a = 0; a < 3; ++a) {
    double c = std::floor(start[a]);
    if (c == start[a] && dir[a] < 0.0) c -= 1.0;  // on a boundary, moving down: the cell below
    cell[a] = int(std::clamp(c, 0.0, size[a] - 1.0));
  }
  glm::ivec3 step;
  glm::dvec3 t_next, t_delta;
  for (int a = 0; a < 3; ++a) {
    step[a] = dir[a] > 0.0 ? 1 : -1;
    t_delta[a] = dir[a] != 0.0 ? std::abs(1.0 / dir[a]) : kInf;
    const double boundary = dir[a] > 0.0 ? double(cell[a] + 1) : double(cell[a]);
    t_next[a] = dir[a] != 0.0 ? (boundary - origin[a]) / dir[a] : kInf;
  }
  // The face of the first cell's box the ray enters through: across the world's side, or (starting inside)
  // the side facing back along the ray's main axis.
  int face;
  if (enter_axis >= 0) {
    face = entry_face(enter_axis, dir[enter_axis]);
  } else {
    face = inside_entry_face(dir);
  }
  double t = t_enter;
  for (;;) {
    const double t_exit = std::min({t_next.x, t_next.y, t_next.z, t_leave});
    std::uint8_t material = 0, form = 0;
    if (cells.read(cell, material, form) == CellLookup::kUnloaded) {
      result.stop = PickStop::kUnloaded;
      result.cell = cell;
      result.distance = t;
      return result;
    }
    const bool model = is_model_material(material);
    if (material != 0 && double(cell.y) < cells.slice_height && (model || shape_lut().shapes[form].solid)) {
      double t_hit = 0.0;
      int hit_face = face;
      glm::vec3 normal(0.0f);
      if (model ? enter_model(cells, material, form, cell, origin, dir, t, t_exit, t_hit, hit_face, normal)
                : enter_shape(form, cell, origin, dir, t, t_exit, face, t_hit, hit_face, normal)) {
        result.stop = PickStop::kHit;
        result.cell = cell;
        result.face = hit_face;
        result.normal = normal;
        result.distance = t_hit;
        result.place = cell + face_direction(hit_face);
        result.material = material;
        result.form = form;
        return result;
      }
    }
    if (t_exit >= t_leave) break;
    int a = 0;
    if (t_next.y < t_next[a]) a = 1;
    if (t_next.z < t_next[a]) a = 2;
    t = t_next[a];
    cell[a] += step[a];
    if (cell[a] < 0 || cell[a] >= cells.size[a]) break;
    t_next[a] += t_delta[a];
    face = entry_face(a, dir[a]);
  }
  result.stop = t_leave < max_distance ? PickStop::kMissed : PickStop::kRange;
  return result;
}

}  // namespace myriad::voxel
