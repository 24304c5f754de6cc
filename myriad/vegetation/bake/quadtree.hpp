// Offline quadtree of a vegetation group (article: built at bake time and stored in the tile, because
// building it at run time is too costly). Splits the XZ extent at its centre until a node holds at most
// `leaf_capacity` instances, and reorders the instances into tree order so every subtree is one range.
#pragma once

#include <cstdint>
#include <span>

#include "myriad/vegetation/bake/tile_format.hpp"

namespace myriad::vegetation {

struct QuadtreeOptions {
  std::uint32_t leaf_capacity = 128;  // instances per leaf (fewer nodes: < 1 byte/instance on disk), 1..65536
  std::uint32_t max_depth = 12;       // stops splitting coincident instances, at most 32

  // Throws myriad::Error naming the first invalid field (make_group and the baker call it).
  void validate() const;
};

// Builds a group of prefab index `prefab` from tile-local instances (any order, at least one): the
// quantization box, encoded records in tree order, the breadth-first nodes with exact bounds.
// Deterministic: the same input gives the same bytes.
Group make_group(std::uint32_t prefab, std::span<const PlantInstance> instances, const CullShape& shape,
                 const QuadtreeOptions& options = {});

}  // namespace myriad::vegetation
