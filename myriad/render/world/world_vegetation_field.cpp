#include "myriad/render/world/world_vegetation_field.hpp"

#include <array>
#include <chrono>
#include <fstream>
#include <thread>

#include "myriad/core/binary_io.hpp"
#include "myriad/core/error.hpp"
#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"
#include "myriad/render/passes/shadow_map.hpp"

namespace myriad::render {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCompleteMarker = "bake_complete.txt";
// The plants' hashed LOD band (±10 % of each switch distance) and cross-fade band (10 % below it).
constexpr float kLodBand = 0.2f;
constexpr float kLodFade = 0.1f;

// A flat grid over the field (normals up), `cells` x `cells` quads: fine enough for the shadow map's
// receivers to interpolate depth well, coarse enough to cost nothing.
vegetation::PlantMesh ground_grid(glm::dvec2 min, glm::dvec2 max, std::uint32_t cells) {
  return vegetation::make_grid_mesh(
      cells, [&](std::uint32_t i, std::uint32_t j, glm::vec3& position, glm::vec3&) {
        position = glm::vec3(float(min.x + (max.x - min.x) * double(i) / double(cells)), 0.0f,
                             float(min.y + (max.y - min.y) * double(j) / double(cells)));
      });
}

// The bake is reused when its marker names the same inputs; otherwise it is baked again.
std::string bake_signature(const VegetationFieldOptions& o) {
  std::string s = "seed " + std::to_string(o.seed) + " extent " + std::to_string(o.min.x) + " " +
                  std::to_string(o.min.y) + " " + std::to_string(o.max.x) + " " + std::to_string(o.max.y) +
                  " tile " + std::to_string(o.tile_size);
  for (const vegetation::Clearing& c : o.clearings)
    s += " clearing " + std::to_string(c.min.x) + " " + std::to_string(c.min.y) + " " +
         std::to_string(c.max.x) + " " + std::to_string(c.max.y);
  return s + " format 1";
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
  bake.terrain.amplitude = 0.0f;  // the default scene's ground is flat
  bake.clearings = o.clearings;
  const vegetation::BakeSummary summary = vegetation::bake_to_directory(bake, dir);
  const std::string text = signature + "\n" + std::to_string(summary.instances) + "\n";
  write_file_atomic(marker, std::as_bytes(std::span(text.data(), text.size())));
  return summary.instances;
}

}  // namespace

VegetationField::VegetationField(gpu::Context& ctx, const VegetationFieldOptions& options,
                                 const std::function<void(const std::string&)>& progress)
    : ctx_(ctx), options_(options) {
  if (!(options.max.x > options.min.x) || !(options.max.y > options.min.y))
    throw Error("the vegetation field needs a positive extent", "VegetationFieldOptions");
  const fs::path dir = options.cache_dir / ("vegetation_" + std::to_string(options.seed));
  stats_.planted = ensure_baked(options, dir, progress);

  vegetation::StreamingOptions streaming;
  streaming.directory = dir;
  streaming.tile_size = options.tile_size;
  streaming.load_radius = options.load_radius;
  streaming.hysteresis = options.hysteresis;
  streaming.rebase_distance = 0.0;
  streamer_ = std::make_unique<vegetation::TileStreamer>(streaming);
  stats_.tiles = streamer_->available().size();

  std::vector<vegetation::PlantMesh> meshes = default_plant_meshes();
  meshes.push_back(ground_grid(options.min, options.max, 64));
  ground_mesh_ = static_cast<std::uint32_t>(meshes.size() - 1);
  cull_ = std::make_unique<VegetationCull>(ctx);
  renderer_ = std::make_unique<VegetationRenderer>(ctx, meshes, OffscreenTarget::kColorFormat,
                                                   OffscreenTarget::kDepthFormat);
  const std::array ground{static_instance(glm::vec3(0.0f), glm::vec3(1.0f), {104, 112, 72})};
  ground_ =
      gpu::Buffer(ctx, sizeof(ground), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx, ground_, std::span<const vegetation::RuntimeInstance>(ground));
  ground_plane_ = std::make_unique<GroundPlane>(*renderer_, ground_mesh_, ground_);
  passes_ = std::make_unique<VegetationPasses>(ctx, *cull_, *renderer_);
}

void VegetationField::refresh_gpu() {
  // Rebuilt from scratch: the old buffers are released first so memory does not double up.
  frame_types_.clear();
  staged_.clear();
  retired_.clear();
  const auto& types = streamer_->world().types();
  gpu_types_.clear();
  gpu_types_.resize(types.size());
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t].instances.empty()) continue;
    gpu_types_[t] = cull_->upload(types[t], renderer_->lod_meshes(types[t].prefab), kLodBand, kLodFade);
  }
  rebuild_frame_types();
  stats_.resident = streamer_->world().instance_count();
  stats_.resident_tiles = streamer_->resident_tiles().size();
  ++stats_.refreshes;
  stale_ = false;
  stale_frames_ = 0;
  refreshing_ = false;
}

void VegetationField::retire(std::size_t type) {
  if (!gpu_types_[type]) return;
  retired_.push_back(std::move(*gpu_types_[type]));
  gpu_types_[type].reset();
}

void VegetationField::rebuild_frame_types() {
  frame_types_.clear();
  std::uint32_t id_base = 0;
  for (const std::optional<VegetationGpuType>& g : gpu_types_) {
    if (!g) continue;
    frame_types_.push_back({&*g, id_base});
    id_base += g->capacity;
  }
}

void VegetationField::update(glm::vec3 camera, std::uint32_t max_stale_frames) {
  const vegetation::StreamingFrame f = streamer_->update(glm::dvec3(camera));
  if (f.uploaded_instances > 0 || f.unloaded > 0) stale_ = true;
  if (!stale_ || refreshing_) return;
  ++stale_frames_;
  if (streamer_->idle() || stale_frames_ >= max_stale_frames) {
    // A refresh round: every type is re-staged from the CPU world as it is when its turn comes.
    refreshing_ = true;
    refresh_cursor_ = 0;
    stale_ = false;
    stale_frames_ = 0;
  }
}

void VegetationField::update(const FrameView&, float) {
  // The copies replaced last frame are free to go: that frame completed.
  retired_.clear();
  staged_.clear();
  if (!refreshing_) return;
  const auto& types = streamer_->world().types();
  if (gpu_types_.size() < types.size()) gpu_types_.resize(types.size());
  while (refresh_cursor_ < types.size()) {
    const vegetation::RuntimeWorld::Type& type = types[refresh_cursor_];
    if (type.instances.empty()) {
      retire(refresh_cursor_);
      ++refresh_cursor_;
      continue;
    }
    std::optional<StagedVegetationType> staged =
        cull_->stage(type, renderer_->lod_meshes(type.prefab), kLodBand, kLodFade);
    if (!staged) break;  // the frame's upload budget is spent: the next types go in later frames
    // The new copy replaces the old one, which stays alive until this frame completed (this command
    // buffer may name it already, e.g. in buffer-guard fills).
    retire(refresh_cursor_);
    gpu_types_[refresh_cursor_] = std::move(staged->gpu);
    staged->gpu = {};
    staged_.push_back(std::move(*staged));
    ++refresh_cursor_;
  }
  rebuild_frame_types();
  if (refresh_cursor_ == types.size()) {
    refreshing_ = false;
    stats_.resident = streamer_->world().instance_count();
    stats_.resident_tiles = streamer_->resident_tiles().size();
    ++stats_.refreshes;
  }
}

void VegetationField::settle(glm::vec3 camera) {
  bool changed = false;
  for (;;) {
    const vegetation::StreamingFrame f = streamer_->update(glm::dvec3(camera));
    changed = changed || f.uploaded_instances > 0 || f.unloaded > 0;
    if (streamer_->idle()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (changed || stale_ || refreshing_ || stats_.refreshes == 0) refresh_gpu();
  for (const vegetation::TileFailure& failure : streamer_->failures())
    throw Error("vegetation tile failed to load: " + failure.message, "vegetation cache");
}

void VegetationField::upload(VkCommandBuffer cmd) {
  if (!staged_.empty()) {
    ctx_.staging_ring().flush();
    for (const StagedVegetationType& s : staged_) cull_->record_staged(cmd, s);
    // The re-staged copies are complete before this frame's culling and draws read them.
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  }
  passes_->begin_frame(cmd, frame_types_);
  recorded_ = true;
}

void VegetationField::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                           const DepthPyramid* pyramid) {
  passes_->cull(cmd, view, frame_types_, phase, pyramid);
}

void VegetationField::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase, const ShadowMap* shadow) {
  passes_->draw(cmd, view, VegetationDrawOptions{}, frame_types_, shadow);
}

void GroundPlane::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                       const ShadowMap* shadow) {
  if (first_phase(phase))
    renderer_.draw_direct(cmd, view, VegetationDrawOptions{}, mesh_, instance_, 1, shadow);
}

void VegetationField::cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  for (const VegetationFrameType& t : frame_types_)
    (void)cull_->record(cmd, shadow_view.frustum, shadow_view.eye, *t.gpu);
}

std::uint32_t VegetationField::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  std::uint32_t draws = 0;
  for (const VegetationFrameType& t : frame_types_) draws += renderer_->draw_shadow(cmd, shadow_view, *t.gpu);
  return draws;
}

void VegetationField::finish_frame() {
  if (recorded_) stats_.drawn = passes_->read_counts();
  recorded_ = false;
}

std::uint64_t VegetationField::gpu_bytes() const {
  std::uint64_t bytes = renderer_->gpu_bytes() + ground_.size();
  for (const std::optional<VegetationGpuType>& g : gpu_types_) {
    if (!g) continue;
    bytes += g->spheres.size() + g->hashes.size() + g->instances.size() + g->params.size() + g->lists.size() +
             g->args.size() + g->hiz.size() + g->visibility.size() + g->counters.size();
  }
  return bytes;
}

}  // namespace myriad::render
