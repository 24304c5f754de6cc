// Baker: per-tile scatter (each candidate's randomness is a hash of seed, type and global cell, so the
// result does not depend on tile size boundaries or thread count), small-group merging, tree building
// and atomic writes. Tiles are processed in batches so progress can be reported on the caller's thread.
#include "myriad/vegetation/bake/baker.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/math/noise.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/vegetation/plant/plant_generated.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"

namespace myriad::vegetation {
namespace {

// The scatter's lattice hash (core's mix64 chained over seed and cell).
std::uint64_t hash(std::uint64_t seed, std::int64_t a, std::int64_t b, std::uint64_t c) {
  return mix64(mix64(mix64(seed ^ static_cast<std::uint64_t>(a)) ^ static_cast<std::uint64_t>(b)) ^ c);
}

// Value noise in 0..1 at (x, z) in lattice units (core's with the cubic fade).
float value_noise(std::uint64_t seed, double x, double z) {
  return value_noise2(x, z, NoiseFade::kCubic,
                      [seed](std::int64_t ix, std::int64_t iz) { return hash_unit(hash(seed, ix, iz, 0)); });
}

float fbm(std::uint64_t seed, double x, double z, int octaves) {
  return myriad::fbm(octaves, 0.5f, [&](int o, double f) {
    return value_noise(seed + std::uint64_t(o) * 7919u, x * f, z * f);
  });
}

using Buckets = std::vector<std::vector<PlantInstance>>;  // per type, tile-local

struct TileWork {
  std::int32_t x = 0, z = 0;
  Buckets buckets;
};

void scatter_tile(const BakeOptions& o, TileWork& t) {
  const double size = double(o.tile_size);
  const double x0 = double(t.x) * size, z0 = double(t.z) * size;
  const double x1 = std::min(x0 + size, o.world_max.x), z1 = std::min(z0 + size, o.world_max.y);
  const double xs = std::max(x0, o.world_min.x), zs = std::max(z0, o.world_min.y);
  for (std::size_t ti = 0; ti < o.types.size(); ++ti) {
    const PlantType& type = o.types[ti];
    const double sp = double(type.spacing);
    const std::uint64_t tseed = mix64(o.seed * 1000003u + ti);
    const auto cx0 = static_cast<std::int64_t>(std::floor(xs / sp)),
               cx1 = static_cast<std::int64_t>(std::floor(x1 / sp));
    const auto cz0 = static_cast<std::int64_t>(std::floor(zs / sp)),
               cz1 = static_cast<std::int64_t>(std::floor(z1 / sp));
    for (std::int64_t cz = cz0; cz <= cz1; ++cz)
      for (std::int64_t cx = cx0; cx <= cx1; ++cx) {
        const std::uint64_t h0 = hash(tseed, cx, cz, 1), h1 = mix64(h0), h2 = mix64(h1), h3 = mix64(h2),
                            h4 = mix64(h3);
        const double px = (double(cx) + 0.25 + 0.5 * double(hash_unit(h0))) * sp;
        const double pz = (double(cz) + 0.25 + 0.5 * double(hash_unit(h1))) * sp;
        if (px < xs || px >= x1 || pz < zs || pz >= z1) continue;
        if (hash_unit(h2) >= type.density) continue;
        if (std::any_of(o.clearings.begin(), o.clearings.end(),
                        [&](const Clearing& c) { return c.clears(ti, px, pz); }))
          continue;
        const float n = fbm(tseed ^ 0xabcdefull, px / double(type.noise_wavelength),
                            pz / double(type.noise_wavelength), 3);
        if (n <= type.noise_threshold) continue;
        const float y = o.terrain.height(px, pz);
        if (y < type.min_altitude || y > type.max_altitude) continue;
        if (o.terrain.slope(px, pz) > type.max_slope) continue;
        PlantInstance p;
        p.position = {static_cast<float>(px - x0), y, static_cast<float>(pz - z0)};
        p.yaw = hash_unit(h3) * 2.0f * std::numbers::pi_v<float>;
        p.scale = type.scale_min + (type.scale_max - type.scale_min) * hash_unit(h4);
        const std::uint64_t h5 = mix64(h4);
        for (int c = 0; c < 3; ++c) {
          const int jitter = int((h5 >> (8 * c)) % (2u * type.tint_jitter + 1u)) - int(type.tint_jitter);
          p.tint[c] = static_cast<std::uint8_t>(
              std::clamp(int(type.tint[static_cast<std::size_t>(c)]) + jitter, 0, 255));
        }
        t.buckets[ti].push_back(p);
      }
  }
}

// Moves tiny groups into the largest same-type group of a 4-neighbour (in tile order: deterministic).
void merge_small_groups(std::vector<TileWork>& tiles, const BakeOptions& o) {
  if (o.merge_below == 0) return;
  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> index;
  for (std::size_t i = 0; i < tiles.size(); ++i) index[{tiles[i].z, tiles[i].x}] = i;
  static constexpr int kDx[4] = {-1, 1, 0, 0}, kDz[4] = {0, 0, -1, 1};
  for (TileWork& t : tiles) {
    for (std::size_t ti = 0; ti < o.types.size(); ++ti) {
      auto& mine = t.buckets[ti];
      if (mine.empty() || mine.size() >= o.merge_below) continue;
      TileWork* best = nullptr;
      for (int k = 0; k < 4; ++k) {
        auto it = index.find({t.z + kDz[k], t.x + kDx[k]});
        if (it == index.end()) continue;
        TileWork& n = tiles[it->second];
        if (n.buckets[ti].size() < o.merge_below) continue;
        if (!best || n.buckets[ti].size() > best->buckets[ti].size()) best = &n;
      }
      if (!best) continue;
      const float dx = float(double(t.x - best->x) * double(o.tile_size));
      const float dz = float(double(t.z - best->z) * double(o.tile_size));
      for (PlantInstance p : mine) {
        p.position.x += dx;
        p.position.z += dz;
        best->buckets[ti].push_back(p);
      }
      mine.clear();
      mine.shrink_to_fit();
    }
  }
}

Tile build_tile(const TileWork& w, const BakeOptions& o, std::span<const Prefab> prefabs) {
  Tile t;
  t.x = w.x;
  t.z = w.z;
  t.size = o.tile_size;
  for (std::size_t ti = 0; ti < w.buckets.size(); ++ti) {
    if (w.buckets[ti].empty()) continue;
    const auto local = static_cast<std::uint32_t>(t.prefabs.size());
    t.prefabs.push_back(prefabs[ti]);
    t.groups.push_back(make_group(local, w.buckets[ti], cull_shape(prefabs[ti].bounds), o.tree));
  }
  return t;
}

std::vector<TileWork> gather(const BakeOptions& o, const std::vector<WorldInstance>* instances) {
  std::vector<TileWork> tiles;
  if (instances) {
    std::map<std::pair<std::int32_t, std::int32_t>, TileWork> by_key;
    for (const WorldInstance& w : *instances) {
      if (w.type >= o.types.size()) throw Error("instance type out of range", "WorldInstance::type");
      // Tile keys are int32 and heights are stored as float: a position beyond either (any finite
      // double parses) would overflow the conversions below.
      const double fx = std::floor(w.position.x / double(o.tile_size));
      const double fz = std::floor(w.position.z / double(o.tile_size));
      constexpr double kMaxTile = std::numeric_limits<std::int32_t>::max(), kMaxHeight = 1e9;
      if (!(std::abs(fx) < kMaxTile && std::abs(fz) < kMaxTile && std::abs(w.position.y) <= kMaxHeight)) {
        throw Error("instance position out of range", "WorldInstance::position",
                    "x and z must lie within 2^31 tiles of the origin and |y| within 1e9 m");
      }
      const auto tx = static_cast<std::int32_t>(fx);
      const auto tz = static_cast<std::int32_t>(fz);
      TileWork& t = by_key[{tz, tx}];
      if (t.buckets.empty()) {
        t.x = tx;
        t.z = tz;
        t.buckets.resize(o.types.size());
      }
      PlantInstance p;
      p.position = {float(w.position.x - double(tx) * double(o.tile_size)), float(w.position.y),
                    float(w.position.z - double(tz) * double(o.tile_size))};
      p.yaw = w.yaw;
      p.scale = w.scale;
      for (int c = 0; c < 3; ++c) p.tint[c] = w.tint[static_cast<std::size_t>(c)];
      t.buckets[w.type].push_back(p);
    }
    for (auto& kv : by_key) tiles.push_back(std::move(kv.second));
  } else {
    const auto tx0 = static_cast<std::int32_t>(std::floor(o.world_min.x / double(o.tile_size)));
    const auto tz0 = static_cast<std::int32_t>(std::floor(o.world_min.y / double(o.tile_size)));
    const auto tx1 = static_cast<std::int32_t>(std::ceil(o.world_max.x / double(o.tile_size)));
    const auto tz1 = static_cast<std::int32_t>(std::ceil(o.world_max.y / double(o.tile_size)));
    for (std::int32_t z = tz0; z < tz1; ++z)
      for (std::int32_t x = tx0; x < tx1; ++x) tiles.push_back({x, z, Buckets(o.types.size())});
    parallel_for(0, tiles.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) scatter_tile(o, tiles[i]);
    });
  }
  merge_small_groups(tiles, o);
  return tiles;
}

bool tile_empty(const TileWork& w) {
  for (const auto& b : w.buckets)
    if (!b.empty()) return false;
  return true;
}

}  // namespace

void BakeOptions::validate() const {
  if (!(tile_size >= kMinBakeTileSize && double(tile_size) <= kMaxBakeEdge))
    throw Error("tile size must be in [1, 100000] metres", "BakeOptions::tile_size");
  const double coordinates[] = {world_min.x, world_min.y, world_max.x, world_max.y};
  for (std::size_t i = 0; i < 4; ++i)
    if (!std::isfinite(coordinates[i]))
      throw Error("world coordinates must be finite",
                  i < 2 ? "BakeOptions::world_min" : "BakeOptions::world_max");
  if (!(world_max.x > world_min.x) || !(world_max.y > world_min.y))
    throw Error("empty world extent", "BakeOptions::world_max", "world_max must exceed world_min on x and z");
  if (world_max.x - world_min.x > kMaxBakeEdge || world_max.y - world_min.y > kMaxBakeEdge)
    throw Error("the world's edges must be at most 100 km", "BakeOptions::world_max",
                "bake a larger world in parts");
  for (std::size_t i = 0; i < 4; ++i)
    if (!(std::abs(coordinates[i]) <= kMaxBakeCoordinate))
      throw Error("world coordinates must be within 1,000 km of the origin",
                  i < 2 ? "BakeOptions::world_min" : "BakeOptions::world_max", "positions are metres");
  if (types.empty()) throw Error("no plant types", "BakeOptions::types");
  for (const PlantType& t : types) {
    if (!(t.spacing > 0.0f)) throw Error("spacing must be positive", "plant type " + t.name);
    float prev = 0.0f;
    for (float d : t.lod_distances) {
      if (!(d > prev)) throw Error("LOD distances must be positive and increasing", "plant type " + t.name);
      prev = d;
    }
    if (!(t.scale_min > 0.0f) || t.scale_max < t.scale_min)
      throw Error("scale range must be positive and ordered", "plant type " + t.name);
  }
  tree.validate();
}

float Heightfield::height(double x, double z) const {
  // Inside a pad its height replaces everything before it: the noise is not needed (crowds on a plaza
  // ask for heights every frame).
  for (std::size_t i = pads.size(); i-- > 0;) {
    double outside = 0.0;
    (void)pads[i].target(x, z, outside);
    if (outside == 0.0) return level_ground(0.0f, x, z, std::span(pads).subspan(i));
  }
  const float noise = base + amplitude * fbm(seed, x / double(wavelength), z / double(wavelength), 4);
  return pads.empty() ? noise : level_ground(noise, x, z, pads);
}

std::string Heightfield::signature() const {
  return "terrain " + std::to_string(seed) + " " + std::to_string(amplitude) + " " +
         std::to_string(wavelength) + " " + std::to_string(base) + " " + pads_signature(pads);
}

float Heightfield::slope(double x, double z) const {
  const float dx = height(x + 0.5, z) - height(x - 0.5, z);
  const float dz = height(x, z + 0.5) - height(x, z - 0.5);
  return std::sqrt(dx * dx + dz * dz);
}

std::vector<PlantType> default_plant_types() {
  return {
      {.name = "tree",
       .kind = PlantKind::kTree,
       .spacing = 9.0f,
       .density = 0.7f,
       .noise_wavelength = 400.0f,
       .noise_threshold = 0.45f,
       .max_slope = 0.6f,
       .scale_min = 0.7f,
       .scale_max = 1.4f,
       .tint = {230, 235, 225},
       .lod_distances = {60.0f, 150.0f, 400.0f, 1200.0f}},
      {.name = "bush",
       .kind = PlantKind::kBush,
       .spacing = 5.0f,
       .density = 0.6f,
       .noise_wavelength = 250.0f,
       .noise_threshold = 0.4f,
       .max_slope = 0.8f,
       .tint = {235, 235, 225},
       .lod_distances = {30.0f, 80.0f, 200.0f, 600.0f}},
      {.name = "grass",
       .kind = PlantKind::kGrass,
       .spacing = 2.5f,
       .density = 0.9f,
       .noise_wavelength = 150.0f,
       .noise_threshold = 0.3f,
       .max_slope = 1.0f,
       .tint = {240, 240, 220},
       .lod_distances = {15.0f, 40.0f, 80.0f, 150.0f}},
  };
}

std::size_t set_plant_model(std::vector<PlantType>& types, const std::string& name,
                            std::shared_ptr<const PlantModel> model) {
  if (!model) throw Error("no model given", "plant type " + name);
  auto it = std::find_if(types.begin(), types.end(), [&](const PlantType& t) { return t.name == name; });
  if (it == types.end()) {
    if (types.empty()) throw Error("no plant types to scatter like", "plant type " + name);
    // Scatter like the generated kind of the nearest height: a tree-sized model spaced like trees.
    const float height = model->lods[0].bounds().max.y;
    const auto distance = [&](const PlantType& t) {
      return std::abs(generated_plant(t.kind)->lods[0].bounds().max.y - height);
    };
    const auto nearest =
        std::min_element(types.begin(), types.end(),
                         [&](const PlantType& a, const PlantType& b) { return distance(a) < distance(b); });
    PlantType added = *nearest;
    added.name = name;
    types.push_back(std::move(added));
    it = types.end() - 1;
  }
  it->model = std::move(model);
  it->tint = {235, 235, 235};
  return static_cast<std::size_t>(it - types.begin());
}

std::vector<Prefab> make_prefabs(std::span<const PlantType> types) {
  std::vector<Prefab> out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const auto& meshes = plant_model_of(types[i]).lods;
    Prefab p;
    p.type_id = static_cast<std::uint32_t>(i);
    for (std::uint32_t l = 0; l < kPlantLodCount; ++l) {
      p.bounds.expand(meshes[l].bounds());
      p.lods.push_back({static_cast<std::uint32_t>(i) * kPlantLodCount + l, static_cast<std::uint32_t>(i),
                        types[i].lod_distances[l]});
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<WorldInstance> read_instance_csv(const std::filesystem::path& path,
                                             std::span<const PlantType> types) {
  const auto bytes = read_file(path);
  return parse_instance_csv(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                            types, path.string());
}

std::vector<WorldInstance> parse_instance_csv(std::string_view text, std::span<const PlantType> types,
                                              const std::string& source) {
  std::istringstream in{std::string(text)};
  std::vector<WorldInstance> out;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line.rfind("type", 0) == 0) continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cols.push_back(c);
    const std::string where = source + ":" + std::to_string(line_no);
    if (cols.size() != 9)
      throw Error("expected 9 columns (type,x,y,z,yaw,scale,r,g,b), found " + std::to_string(cols.size()),
                  where);
    auto number = [&](std::size_t col, const char* name) {
      char* end = nullptr;
      const double v = std::strtod(cols[col].c_str(), &end);
      if (end == cols[col].c_str() || *end != '\0' || !std::isfinite(v))
        throw Error(std::string("column ") + name + " is not a finite number: '" + cols[col] + "'", where);
      return v;
    };
    WorldInstance w;
    auto it = std::find_if(types.begin(), types.end(), [&](const PlantType& t) { return t.name == cols[0]; });
    if (it != types.end()) {
      w.type = static_cast<std::uint32_t>(it - types.begin());
    } else {
      // Neither a type name nor an index: name the type, not a number column.
      char* end = nullptr;
      const double t = std::strtod(cols[0].c_str(), &end);
      if (end == cols[0].c_str() || *end != '\0' || !(t >= 0 && t < double(types.size())) ||
          t != std::floor(t)) {
        std::string names;
        for (const PlantType& type : types) names += (names.empty() ? "" : ", ") + type.name;
        throw Error("unknown plant type '" + cols[0] + "'", where,
                    "use a type name (" + names + ") or an index below " + std::to_string(types.size()));
      }
      w.type = static_cast<std::uint32_t>(t);
    }
    w.position = {number(1, "x"), number(2, "y"), number(3, "z")};
    // Any finite angle is valid, but a huge one (1e200 degrees) would become an infinite float:
    // reduce it to one turn first (fmod is exact).
    w.yaw = static_cast<float>(std::fmod(number(4, "yaw"), 360.0) * std::numbers::pi / 180.0);
    w.scale = static_cast<float>(number(5, "scale"));
    if (!(w.scale > 0.0f) || w.scale > 60000.0f) throw Error("scale must be in (0, 60000]", where);
    for (std::size_t c = 0; c < 3; ++c) {
      const double v = number(6 + c, "r/g/b");
      if (v < 0 || v > 255) throw Error("colour channel outside 0..255", where);
      w.tint[c] = static_cast<std::uint8_t>(std::lround(v));
    }
    out.push_back(w);
  }
  return out;
}

std::vector<Tile> bake_tiles(const BakeOptions& o, const std::vector<WorldInstance>* instances,
                             const BakeProgress& progress) {
  o.validate();
  const auto prefabs = make_prefabs(o.types);
  auto work = gather(o, instances);
  std::erase_if(work, tile_empty);
  std::vector<Tile> tiles(work.size());
  constexpr std::size_t kBatch = 64;
  for (std::size_t b = 0; b < work.size(); b += kBatch) {
    const std::size_t e = std::min(work.size(), b + kBatch);
    parallel_for(b, e, 1, [&](std::size_t cb, std::size_t ce) {
      for (std::size_t i = cb; i < ce; ++i) tiles[i] = build_tile(work[i], o, prefabs);
    });
    if (progress) progress(e, work.size());
  }
  return tiles;
}

BakeSummary bake_to_directory(const BakeOptions& o, const std::filesystem::path& dir,
                              const std::vector<WorldInstance>* instances, const BakeProgress& progress) {
  o.validate();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create output folder: " + ec.message(), dir.string());
  const auto prefabs = make_prefabs(o.types);
  auto work = gather(o, instances);
  std::erase_if(work, tile_empty);
  std::vector<std::size_t> bytes(work.size()), counts(work.size());
  constexpr std::size_t kBatch = 64;
  for (std::size_t b = 0; b < work.size(); b += kBatch) {
    const std::size_t e = std::min(work.size(), b + kBatch);
    parallel_for(b, e, 1, [&](std::size_t cb, std::size_t ce) {
      for (std::size_t i = cb; i < ce; ++i) {
        const Tile t = build_tile(work[i], o, prefabs);
        const auto data = serialize_tile(t);
        write_file_atomic(dir / tile_file_name(t.x, t.z), data);
        bytes[i] = data.size();
        counts[i] = t.instance_count();
        work[i].buckets = {};  // release as we go: a 10 M world does not need to stay resident
      }
    });
    if (progress) progress(e, work.size());
  }
  BakeSummary s;
  s.plant_files = write_baked_plants(dir, o.types);
  s.tiles = work.size();
  for (std::size_t i = 0; i < work.size(); ++i) {
    s.bytes += bytes[i];
    s.instances += counts[i];
  }
  return s;
}

}  // namespace myriad::vegetation
