#include "myriad/render/vegetation/vegetation_field.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>
#include <utility>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCompleteMarker = "bake_complete.txt";
// The bake is reused when its marker names the same inputs; otherwise it is baked again.
std::string bake_signature(const VegetationFieldOptions& o) {
  std::string s = "seed " + std::to_string(o.seed) + " extent " + std::to_string(o.min.x) + " " +
                  std::to_string(o.min.y) + " " + std::to_string(o.max.x) + " " + std::to_string(o.max.y) +
                  " tile " + std::to_string(o.tile_size);
  for (const vegetation::Clearing& c : o.clearings)
    s += " clearing " + std::to_string(c.min.x) + " " + std::to_string(c.min.y) + " " +
         std::to_string(c.max.x) + " " + std::to_string(c.max.y) +
         (c.spared_types != 0 ? " spares " + std::to_string(c.spared_types) : std::string());
  // The tiles carry each type's tint and prefab bounds: new plant art bakes again.
  const std::vector<vegetation::PlantType> types = vegetation::default_plant_types();
  const std::vector<vegetation::Prefab> prefabs = vegetation::make_prefabs(types);
  for (std::size_t i = 0; i < types.size(); ++i) {
    s.append(" type ").append(types[i].name);
    for (const std::uint8_t c : types[i].tint) s.append(" ").append(std::to_string(c));
    for (int a = 0; a < 3; ++a)
      s.append(" ")
          .append(std::to_string(prefabs[i].bounds.min[a]))
          .append(" ")
          .append(std::to_string(prefabs[i].bounds.max[a]));
  }
  return s + " " + o.terrain.signature() + " format 1";
}

std::uint64_t ensure_baked(const VegetationFieldOptions& o, const fs::path& dir,
                           const std::function<void(const std::string&)>& progress) {
  const std::string signature = bake_signature(o);
  const fs::path marker = dir / kCompleteMarker;
  if (fs::exists(marker)) {
    std::ifstream in(marker);
    std::string line;
    std::uint64_t count = 0;
    if (std::getline(in, line) && line == signature && (in >> count)) return count;
  }
  if (progress) progress("baking the vegetation field into " + dir.string());
  vegetation::BakeOptions bake;
  bake.seed = o.seed;
  bake.tile_size = o.tile_size;
  bake.world_min = o.min;
  bake.world_max = o.max;
  bake.terrain = o.terrain;
  bake.clearings = o.clearings;
  const vegetation::BakeSummary summary = vegetation::bake_to_directory(bake, dir);
  const std::string text = signature + "\n" + std::to_string(summary.instances) + "\n";
  write_file_atomic(marker, std::as_bytes(std::span(text.data(), text.size())));
  return summary.instances;
}

}  // namespace

void VegetationFieldOptions::validate() const {
  const bool finite =
      std::isfinite(min.x) && std::isfinite(min.y) && std::isfinite(max.x) && std::isfinite(max.y);
  if (!finite || !(max.x > min.x) || !(max.y > min.y))
    throw Error("the vegetation field needs a finite, positive extent", "VegetationFieldOptions::max",
                "max must exceed min on x and z");
  if (!(tile_size > 0.0f) || !std::isfinite(tile_size))
    throw Error("the tile size must be a finite number of metres > 0", "VegetationFieldOptions::tile_size");
  if (!(load_radius >= 0.0f) || !std::isfinite(load_radius))
    throw Error("the load radius must be a finite number of metres >= 0",
                "VegetationFieldOptions::load_radius");
  if (!(hysteresis >= 0.0f) || !std::isfinite(hysteresis))
    throw Error("the hysteresis must be a finite number of metres >= 0",
                "VegetationFieldOptions::hysteresis");
  if (!(rebase_distance >= 0.0) || !std::isfinite(rebase_distance))
    throw Error("the rebase distance must be a finite number of metres >= 0 (0: never)",
                "VegetationFieldOptions::rebase_distance");
  ground.validate();
  pools.validate();
}

VegetationField::VegetationField(gpu::Context& ctx, const VegetationFieldOptions& options,
                                 const std::function<void(const std::string&)>& progress)
    : ctx_(ctx), options_(options) {
  options.validate();
  const fs::path dir = options.cache_dir / ("vegetation_" + std::to_string(options.seed));
  stats_.planted = ensure_baked(options, dir, progress);

  vegetation::StreamingOptions streaming;
  streaming.directory = dir;
  streaming.tile_size = options.tile_size;
  streaming.load_radius = options.load_radius;
  streaming.hysteresis = options.hysteresis;
  streaming.rebase_distance = options.rebase_distance;
  streaming.spread_frames = 8;         // standing: an arrival is copied over about 8 frames
  streaming.unload_spread_frames = 4;  // tiles that fall behind leave one or a few per frame
  // Moving: copies paced to the camera, each tile whole 150 m after it is requested at the load radius.
  streaming.deadline_radius = std::max(0.0f, options.load_radius - 150.0f);
  streamer_ = std::make_unique<vegetation::TileStreamer>(streaming);
  stats_.tiles = streamer_->available().size();

  vegetation::PlantArt art = default_plant_art();
  std::vector<vegetation::PlantMesh>& meshes = art.meshes;
  std::vector<vegetation::GroundTile> tiles =
      vegetation::make_ground_tiles([&](double x, double z) { return options.terrain.height(x, z); },
                                    options.min, options.max, glm::dvec3(0.0), options.ground);
  const auto first_ground_mesh = static_cast<std::uint32_t>(meshes.size());
  for (vegetation::GroundTile& t : tiles)
    for (vegetation::PlantMesh& m : t.lods) meshes.push_back(std::exchange(m, {}));
  cull_ = std::make_unique<VegetationCull>(ctx);
  renderer_ = std::make_unique<VegetationRenderer>(ctx, meshes, OffscreenTarget::kColorFormat,
                                                   OffscreenTarget::kDepthFormat, art.textures);
  const std::array ground{static_instance(glm::vec3(0.0f), glm::vec3(1.0f), {104, 112, 72})};
  ground_ =
      gpu::Buffer(ctx, sizeof(ground), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx, ground_, std::span<const vegetation::RuntimeInstance>(ground));
  ground_tiles_ = std::make_unique<GroundTiles>(ctx, *renderer_, std::move(tiles), first_ground_mesh,
                                                options.ground, ground_);
  passes_ = std::make_unique<VegetationPasses>(ctx, *cull_, *renderer_);
  VegetationPoolsOptions pools = options.pools;
  if (!pools.workers) pools.workers = streamer_->workers();  // growth buffers made beside the tile reads
  pools_ = std::make_unique<VegetationPools>(ctx, *cull_, *renderer_, std::move(pools));
}

vegetation::StreamingFrame VegetationField::update(glm::dvec3 camera) {
  const vegetation::StreamingFrame f = streamer_->update(camera);
  stats_.resident = streamer_->world().instance_count();
  return f;
}

void VegetationField::update(const FrameView&, float) {
  stats_.pools = pools_->update(*streamer_);
  stats_.pages_staged += stats_.pools.pages_staged;
  stats_.resident_tiles = streamer_->resident_count();
}

void VegetationField::settle(glm::vec3 camera) {
  for (;;) {
    (void)streamer_->update(glm::dvec3(camera));
    if (streamer_->idle()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  for (const vegetation::TileFailure& failure : streamer_->failures())
    throw Error("vegetation tile failed to load: " + failure.message, "vegetation cache");
  pools_->settle(*streamer_);
  stats_.resident = streamer_->world().instance_count();
  stats_.resident_tiles = streamer_->resident_count();
}

void VegetationField::upload(VkCommandBuffer cmd) {
  pools_->upload(cmd);
  if (options_.culling == CullPath::kGpu)
    passes_->begin_frame(cmd, pools_->frame_types());
  else
    cpu_counts_ = {};
  recorded_ = true;
}

void VegetationField::cull_on_cpu(VegetationCpuCull& into, VkCommandBuffer cmd, const FrameView& view) {
  const vegetation::RuntimeWorld& world = streamer_->world();
  pool_of_.resize(world.types().size());  // the same size frame after frame: no allocation
  for (std::size_t t = 0; t < pool_of_.size(); ++t) pool_of_[t] = pools_->pool(t);
  into.cull(world, pool_of_, view.frustum, view.eye, options_.cpu_lod);
  into.stage(cmd, *cull_, pool_of_);
}

void VegetationField::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                           const DepthPyramid* pyramid) {
  if (options_.culling == CullPath::kGpu) {
    passes_->cull(cmd, view, pools_->frame_types(), phase, pyramid);
    return;
  }
  if (first_phase(phase)) cull_on_cpu(cpu_, cmd, view);
}

void VegetationField::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                           const ShadowMap* shadow) {
  if (options_.culling == CullPath::kGpu) {
    passes_->draw(cmd, view, VegetationDrawOptions{}, pools_->frame_types(), shadow);
    return;
  }
  if (!first_phase(phase)) return;
  for (std::size_t t = 0; t < pool_of_.size(); ++t) {
    if (!pool_of_[t]) continue;
    const VegetationGpuType& pool = *pool_of_[t];
    const VegetationCpuLists& placed = cpu_.placed(t);
    cpu_counts_.draws += renderer_->draw_batches(cmd, view, VegetationDrawOptions{}, pool, placed,
                                                 vegetation::kCompatBatchLimit, 0xFu, shadow);
    ++cpu_counts_.binds;
    for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
      const std::uint64_t n = l < pool.lod.count && pool.meshes[l].index_count > 0 ? placed.count[l] : 0;
      cpu_counts_.early[l] += n;
      cpu_counts_.indices += n * pool.meshes[l].index_count;
      cpu_counts_.triangles += n * (pool.meshes[l].index_count / 3);
      cpu_counts_.frustum_passed += placed.count[l];
    }
    cpu_counts_.overflow += placed.overflow;
    cpu_counts_.frustum_passed += placed.overflow;
  }
}

GroundTiles::GroundTiles(gpu::Context& ctx, const VegetationRenderer& renderer,
                         std::vector<vegetation::GroundTile> tiles, std::uint32_t first_mesh,
                         const vegetation::GroundTileOptions& options, const gpu::Buffer& instance)
    : renderer_(renderer),
      bounds_(std::move(tiles)),
      first_mesh_(first_mesh),
      options_(options),
      instance_(instance),
      material_(ctx, renderer, options.material) {}

void GroundTiles::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                       const ShadowMap* shadow) {
  if (!first_phase(phase)) return;
  vegetation::pick_ground_lods(bounds_, view.frustum, view.eye, options_, levels_);
  drawn_ = 0;
  triangles_ = 0;
  for (std::size_t t = 0; t < levels_.size(); ++t) {
    if (levels_[t] < 0) continue;
    const auto mesh =
        first_mesh_ + static_cast<std::uint32_t>(t * vegetation::kGroundLods + std::size_t(levels_[t]));
    material_.draw(cmd, view, VegetationDrawOptions{}, mesh, instance_, 1, shadow);
    ++drawn_;
    triangles_ += renderer_.mesh(mesh).index_count / 3;
  }
}

void VegetationField::cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  if (options_.culling == CullPath::kCpu) {
    cull_on_cpu(cpu_shadow_, cmd, shadow_view);
    return;
  }
  for (const VegetationFrameType& t : pools_->frame_types())
    (void)cull_->record(cmd, shadow_view.frustum, shadow_view.eye, *t.gpu);
}

std::uint32_t VegetationField::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  std::uint32_t draws = 0;
  if (options_.culling == CullPath::kCpu) {
    for (std::size_t t = 0; t < pool_of_.size(); ++t)
      if (pool_of_[t])
        draws += renderer_->draw_shadow_batches(cmd, shadow_view, *pool_of_[t], cpu_shadow_.placed(t));
    return draws;
  }
  for (const VegetationFrameType& t : pools_->frame_types())
    draws += renderer_->draw_shadow(cmd, shadow_view, *t.gpu);
  return draws;
}

void VegetationField::finish_frame() {
  if (recorded_) stats_.drawn = options_.culling == CullPath::kGpu ? passes_->read_counts() : cpu_counts_;
  recorded_ = false;
}

std::uint64_t VegetationField::gpu_bytes() const {
  return renderer_->gpu_bytes() + ground_.size() + cull_->decode_table().size() + pools_->gpu_bytes();
}

double VegetationField::gpu_bytes_per_instance() const {
  const std::size_t n = streamer_->world().instance_count();
  return n == 0 ? 0.0 : double(pools_->gpu_bytes()) / double(n);
}

SystemFrameStats GroundTiles::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  s.objects = tile_count();
  if (!drawn) return s;
  s.visible = s.draws = drawn_;
  s.pipeline_binds = s.draws > 0 ? 1 : 0;
  s.triangles = triangles_;
  return s;
}

SystemFrameStats VegetationField::read_frame_stats(bool drawn) {
  finish_frame();
  SystemFrameStats s;
  s.objects = stats_.resident;
  s.gpu_bytes = gpu_bytes();
  s.overflow = stats_.drawn.overflow;
  if (!drawn) return s;
  s.visible = stats_.drawn.total();
  s.frustum_culled = s.objects - std::min<std::uint64_t>(stats_.drawn.frustum_passed, s.objects);
  s.occlusion_culled = stats_.drawn.occluded;
  s.draws = stats_.drawn.draws;
  s.pipeline_binds = stats_.drawn.binds;
  s.vertices = stats_.drawn.indices;
  s.triangles = stats_.drawn.triangles;
  return s;
}

}  // namespace myriad::render
