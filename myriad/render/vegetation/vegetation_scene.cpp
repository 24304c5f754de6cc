// The camera stands at one edge of the field looking across it; the render origin sits under it. GPU
// culling renders two frames (the second one's phase 1 draws what the first found visible: the steady
// state); CPU culling renders one.
#include "myriad/render/vegetation/vegetation_scene.hpp"

#include <cmath>
#include <memory>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/vegetation/ground_material_pass.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::render {
namespace {

// The baker's heightfield as a grid mesh (world coordinates relative to `origin`), `step` metres apart.
vegetation::PlantMesh terrain_mesh(const vegetation::Heightfield& hf, double size, double step,
                                   glm::dvec3 origin) {
  const auto cells = static_cast<std::uint32_t>(size / step);
  return vegetation::make_grid_mesh(
      cells, [&](std::uint32_t i, std::uint32_t j, glm::vec3& position, glm::vec3& normal) {
        const double x = double(i) * step, z = double(j) * step;
        const double hx = double(hf.height(x + 0.5, z)) - double(hf.height(x - 0.5, z));
        const double hz = double(hf.height(x, z + 0.5)) - double(hf.height(x, z - 0.5));
        position = glm::vec3(glm::dvec3(x, double(hf.height(x, z)), z) - origin);
        normal = glm::normalize(glm::vec3(float(-hx), 1.0f, float(-hz)));
      });
}

}  // namespace

void VegetationSceneOptions::validate() const {
  check_scene_image_size(width, height, "VegetationSceneOptions::width", "VegetationSceneOptions::height");
  if (!(size >= kMinVegetationSceneSize) || size > kMaxVegetationSceneSize)
    throw Error("field size must be in [100, 4000] m", "VegetationSceneOptions::size");
  if (batch == 0 || batch > vegetation::kCompatBatchLimit)
    throw Error("a draw batch holds 1 to 1023 instances (the article's instanced-draw limit)",
                "VegetationSceneOptions::batch");
}

VegetationSceneResult render_vegetation_scene(gpu::Context& ctx, const VegetationSceneOptions& o) {
  o.validate();
  VegetationSceneResult result;
  vegetation::BakeOptions bake;
  bake.seed = o.seed;
  bake.world_max = {o.size, o.size};
  bake.terrain.amplitude = 25.0f;
  bake.terrain.wavelength = 600.0f;
  for (const auto& [name, model] : o.prefabs) vegetation::set_plant_model(bake.types, name, model);
  Stopwatch clock;
  std::vector<vegetation::Tile> tiles = vegetation::bake_tiles(bake);
  result.bake_ms = clock.elapsed_ms();

  const double mid = o.size * 0.5;
  const glm::dvec3 eye(mid, double(bake.terrain.height(mid, o.size - 20.0)) + 14.0, o.size - 20.0);
  const glm::dvec3 look(mid + 40.0, double(bake.terrain.height(mid, mid)), mid);
  const glm::dvec3 origin(std::floor(eye.x), 0.0, std::floor(eye.z));
  vegetation::RuntimeWorld world(origin);
  for (vegetation::Tile& t : tiles) {
    auto tile = std::make_shared<const vegetation::Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  result.instances = world.instance_count();
  result.types = world.types().size();

  vegetation::PlantArt art = vegetation::plant_art(bake.types);
  art.meshes.push_back(terrain_mesh(bake.terrain, o.size, 4.0, origin));
  const auto terrain_id = static_cast<std::uint32_t>(art.meshes.size() - 1);
  OffscreenTarget target(ctx, o.width, o.height);
  const VegetationCull cull(ctx);
  const VegetationRenderer renderer(ctx, art.meshes, OffscreenTarget::kColorFormat,
                                    OffscreenTarget::kDepthFormat, art.textures);
  std::vector<VegetationGpuType> pools;
  std::vector<VegetationFrameType> frame_types;
  std::uint32_t id_base = 0;
  for (const auto& type : world.types())
    pools.push_back(
        cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f, renderer.lod_bounds(type.prefab)));
  for (const VegetationGpuType& p : pools) {
    frame_types.push_back({&p, id_base});
    id_base += p.capacity;
  }
  const std::array ground{static_instance(glm::vec3(0.0f), glm::vec3(1.0f), {96, 84, 60})};
  // The ground in the terrain material (flat shading: the tint above): rock on the steep slopes and above
  // four fifths of the hills' height, sand in the lowest hollows.
  vegetation::GroundMaterial material;
  material.sand_below = bake.terrain.base + 0.12f * bake.terrain.amplitude;
  material.rock_above = bake.terrain.base + 0.8f * bake.terrain.amplitude;
  const GroundMaterialPass ground_pass(ctx, renderer, material);
  const gpu::Buffer ground_buffer = gpu::make_filled_buffer(
      ctx, std::span<const vegetation::RuntimeInstance>(ground), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);

  SceneCamera camera = SceneCamera::look_at(glm::vec3(eye - origin), glm::vec3(look - origin), 1.0f);
  camera.near_plane = 0.1f;
  const FrameView view =
      FrameView::of_camera(camera, o.width, o.height, glm::vec3(0.4f, 1.0f, 0.3f), 0.0f, origin);
  VegetationDrawOptions settings;
  settings.instance_ids = o.instance_ids;
  const glm::vec4 clear = o.instance_ids ? glm::vec4(0.0f) : glm::vec4(0.55f, 0.7f, 0.9f, 1.0f);
  auto opaque = [&](VkCommandBuffer cmd) {
    VegetationDrawOptions ground_settings = settings;
    ground_settings.id_base = 0xFFFFFEu;  // with instance ids the ground reads as id 0xFFFFFE
    ground_pass.draw(cmd, view, ground_settings, terrain_id, ground_buffer, 1, nullptr);
  };

  if (o.culling == VegetationCulling::kGpu) {
    VegetationFrame frame(ctx, cull, renderer, target);
    for (int f = 0; f < 2; ++f) {
      clock.restart();
      ctx.submit_and_wait([&](VkCommandBuffer cmd) {
        frame.record(cmd, view, settings, frame_types, opaque, o.occlusion, clear);
      });
      result.frame_ms = clock.elapsed_ms();
    }
    const VegetationFrameCounts counts = frame.read_counts();
    result.drawn = counts.total();
    result.draws = counts.draws;
    result.overflow = counts.overflow;
  } else {
    // G7: the quadtrees on the CPU, then batched instanced draws from the lists (no Hi-Z).
    clock.restart();
    std::vector<const VegetationGpuType*> pool_of(pools.size());
    for (std::size_t t = 0; t < pools.size(); ++t) pool_of[t] = &pools[t];
    VegetationCpuCull cpu;
    cpu.cull(world, pool_of, view.frustum, view.eye, o.cpu_lod);
    result.cpu_cull = cpu.stats();
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      cpu.stage(cmd, cull, pool_of);
      target.begin(cmd, clear);
      opaque(cmd);
      for (std::size_t t = 0; t < pools.size(); ++t) {
        VegetationDrawOptions s = settings;
        s.id_base = frame_types[t].id_base;
        result.draws += renderer.draw_batches(cmd, view, s, pools[t], cpu.placed(t), o.batch);
        for (const std::uint32_t n : cpu.placed(t).count) result.drawn += n;
        result.overflow += cpu.placed(t).overflow;
      }
      target.end(cmd);
    });
    for (std::size_t t = 0; t < pools.size(); ++t) {
      result.cpu_lists.push_back(cpu.lists(t));
      result.id_bases.push_back(frame_types[t].id_base);
    }
    result.frame_ms = clock.elapsed_ms();
  }
  result.rgba = target.read_color();
  return result;
}

}  // namespace myriad::render
