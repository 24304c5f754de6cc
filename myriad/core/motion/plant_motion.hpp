// How plants move: one wind field and one trampling (interaction) field, read by every plant system
// (the vegetation field's plants, voxel grass, voxel trees). This is the CPU twin of the shaders, formula
// for formula: render/shaders/wind.glsl (wind_bend), plant_motion.glsl (trample_at, plant_bend,
// bend_vertex) and interaction_field.comp (the splat, bit for bit: fixed-point sums). The layouts are in
// plant_motion_layout.h.
//
// A plant bends as a whole: its bend is a tip displacement per metre of height (XZ), taken at its root,
// and a vertex at height fraction h moves by bend * height * h² (the base stays put), its distance from
// the root kept so the plant does not stretch.
#pragma once

#include <cstdint>
#include <span>

#include "myriad/core/cull/bounds.hpp"
#include "myriad/core/motion/plant_motion_layout.h"

namespace myriad {

inline constexpr float kInteractionOne = float(MYRIAD_INTERACTION_ONE);
inline constexpr float kMaxWindBend = float(MYRIAD_MAX_WIND_BEND);
inline constexpr float kTrampleBend = float(MYRIAD_TRAMPLE_BEND);

// Throws myriad::Error naming the first invalid field: direction not of unit length, a negative or
// non-finite lean, flutter or speed, gust_scale under a metre.
void validate_wind(const WindParams& wind);

// The wind's bend at world position `world_xz` at `time` seconds (both GPU and CPU evaluate it per
// plant). Every term is a function of the position in the gusts' frame (along the wind minus
// gust_speed * time, and across it), so the whole pattern travels along `direction` at gust_speed and
// neighbouring plants lean together. Its length never exceeds kMaxWindBend.
glm::vec2 wind_bend(const WindParams& wind, glm::vec2 world_xz, float time);

// How a plant of `height` metres (at scale 1) answers: `sway` scales the wind's bend (tall plants are
// stiffer), `trample` how much feet press it (1 up to 1.5 m: grass, bushes; 0 from 2 m: trees).
struct PlantMotionType {
  float height = 1.0f;
  float sway = 1.0f;
  float trample = 1.0f;
};
float plant_sway_weight(float height);
float plant_trample_weight(float height);
PlantMotionType plant_motion_type(float height);

// The bounds a plant's swaying and trampled vertices stay within, for `bounds` of its mesh (base at the
// origin) bent as `type` allows: used for its culling spheres, so culling stays conservative.
Aabb sway_bounds(const Aabb& bounds, const PlantMotionType& type);

// The trampling grid of `resolution` cells of `cell` metres around `centre_xz`, snapped to whole cells
// (the grid does not shimmer as the centre moves).
InteractionGrid interaction_grid_around(glm::vec2 centre_xz, float cell, std::uint32_t resolution);
// A foot at `xz` pressing plants within `radius` metres (> 0).
Interactor make_interactor(glm::vec2 xz, float radius, float strength = 1.0f);
// Whether a foot of `radius` at `xz` touches a cell of `grid`.
bool interactor_reaches(const InteractionGrid& grid, glm::vec2 xz, float radius);
// Cells each side of a foot's own cell that a foot of `max_radius` can touch.
std::uint32_t interaction_reach(const InteractionGrid& grid, float max_radius);

// The field of `interactors` on `grid` (cells: resolution² of them, overwritten), exactly as the GPU
// splat writes it: each foot visits the (2 reach + 1)² cells around its own, and every cell whose centre
// lies within its radius gets push += u * w and press += w, u = (cell centre - foot) / radius,
// w = (1 - |u|²)² * strength, each rounded to MYRIAD_INTERACTION_ONE units before it is added.
void splat_interactions(const InteractionGrid& grid, std::span<const Interactor> interactors,
                        std::uint32_t reach, std::span<InteractionCell> cells);

// A plant's trampling at `xz` (relative to the render origin): the direction it is pushed (unit; the
// wind's direction where the push cancels out, under a foot's centre) and how hard, in [0, 1]; outside
// the grid, nothing.
struct Trample {
  glm::vec2 direction{1.0f, 0.0f};
  float amount = 0.0f;
};
Trample trample_at(const PlantMotionHeader& header, std::span<const InteractionCell> cells, glm::vec2 xz);

// The bend of a plant rooted at `root_xz` (relative to the render origin) at `time`: the wind's, scaled
// by `sway`, giving way to the trampling's (MYRIAD_TRAMPLE_BEND along its direction) as `trample` times
// its amount grows.
glm::vec2 plant_bend(const PlantMotionHeader& header, std::span<const InteractionCell> cells,
                     glm::vec2 root_xz, float time, float sway, float trample);

// Where a vertex `rel` (relative to its plant's root) at height fraction `h01` of a plant `height`
// metres tall goes under `bend`: moved by bend * height * h01², then scaled back to its distance from the
// root. A vertex at h01 = 0 does not move.
glm::vec3 bend_vertex(glm::vec3 rel, float h01, float height, glm::vec2 bend);

}  // namespace myriad
