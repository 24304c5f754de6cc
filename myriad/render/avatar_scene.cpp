#include "myriad/render/avatar_scene.hpp"

#include <array>
#include <cmath>

#include "myriad/anim/avatar.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/core/error.hpp"
#include "myriad/core/frustum.hpp"
#include "myriad/core/stopwatch.hpp"
#include "myriad/render/avatar_blob_shadow.hpp"
#include "myriad/render/batch_gpu.hpp"
#include "myriad/render/offscreen_target.hpp"

namespace myriad::render {
namespace {

constexpr float kAvatarRadius = 0.4f;  // horizontal half-extent of a walking avatar (arms down)

struct SceneCamera {
  glm::mat4 view_proj;
  batch::CullCamera cull;
};

// Looks down at the grid's centre from the front, far enough for the whole grid to fit.
SceneCamera grid_camera(std::size_t avatars, float spacing, float aspect) {
  const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(avatars))));
  const std::size_t rows = (avatars + side - 1) / side;
  const float width = static_cast<float>(side - 1) * spacing, depth = static_cast<float>(rows - 1) * spacing;
  const glm::vec3 centre(0.5f * width, 0.8f, -0.5f * depth);
  const float fov = glm::radians(40.0f);
  const float extent = std::max(width, depth) + 2.5f;
  const float distance = 0.6f * extent / std::tan(0.5f * fov) / std::min(aspect, 1.0f) + 1.0f;
  const glm::vec3 eye = centre + distance * glm::normalize(glm::vec3(0.3f, 0.55f, 1.0f));
  SceneCamera c;
  c.view_proj = perspective_infinite_reverse_z(fov, aspect, 0.1f) * glm::lookAt(eye, centre, kWorldUp);
  c.cull.frustum = Frustum::from_view_proj(c.view_proj, DepthConvention::kReverseZ);
  c.cull.position = eye;
  c.cull.lod_scale = 1.0f / (2.0f * std::tan(0.5f * fov));
  return c;
}

// Per batch type: the packed instances and property floats (setup-time upload).
struct TypeBuffers {
  gpu::Buffer instances, properties;
};

std::vector<TypeBuffers> upload_batches(gpu::Context& ctx, const batch::BatchScene& scene) {
  std::vector<TypeBuffers> out(scene.batch_count());
  for (std::size_t t = 0; t < out.size(); ++t) {
    const batch::Batch& b = scene.batch(static_cast<batch::BatchType>(t));
    const std::vector<shader::SkinInstance> packed = pack_skin_instances(b);
    out[t].instances =
        gpu::Buffer(ctx, std::max<std::size_t>(packed.size(), 1) * sizeof(shader::SkinInstance),
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    out[t].properties = gpu::Buffer(ctx, std::max<std::size_t>(b.properties.size(), 4) * sizeof(float),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    if (!packed.empty()) gpu::upload(ctx, out[t].instances, std::span<const shader::SkinInstance>(packed));
    if (!b.properties.empty()) gpu::upload(ctx, out[t].properties, std::span<const float>(b.properties));
  }
  return out;
}

}  // namespace

std::uint32_t avatar_id_from_rgba(const std::uint8_t* pixel) {
  return std::uint32_t{pixel[0]} | (std::uint32_t{pixel[1]} << 8) | (std::uint32_t{pixel[2]} << 16);
}

AvatarSceneResult render_avatar_scene(gpu::Context& ctx, const AvatarSceneOptions& o) {
  if (o.avatars == 0 || o.width == 0 || o.height == 0)
    throw Error("avatar scene needs avatars and a non-empty image", "AvatarSceneOptions");
  const anim::Avatar avatar = anim::make_avatar({.clothed = o.clothed});
  batch::AvatarCrowd crowd(avatar, {.avatars = o.avatars, .spacing = o.spacing});
  const SceneCamera camera =
      grid_camera(o.avatars, o.spacing, static_cast<float>(o.width) / static_cast<float>(o.height));
  const batch::CrowdFrameStats stats = crowd.frame(camera.cull, o.time);

  // Part meshes with joints in renderer-skeleton indices (skeleton dedup), as skin.vert reads them.
  std::vector<anim::SkinnedMesh> meshes;
  for (std::size_t p = 0; p < avatar.parts.size(); ++p) {
    meshes.push_back(avatar.parts[p].mesh);
    anim::remap_joints(meshes.back().joints, crowd.dedup().remap[p]);
  }
  const SkinMeshArena arena(ctx, meshes);
  SkinPalette palette(ctx, crowd.palettes().size());
  palette.write(crowd.palettes(), 0, crowd.palettes().size());
  const std::vector<TypeBuffers> types = upload_batches(ctx, crowd.scene());
  const batch::DrawList& draws = crowd.draw_list();
  const gpu::Buffer slots(ctx, std::max<std::size_t>(draws.instances.size(), 1) * sizeof(std::uint32_t),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  if (!draws.instances.empty()) gpu::upload(ctx, slots, std::span<const std::uint32_t>(draws.instances));

  AvatarBlobShadow blobs(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat, o.avatars);
  std::vector<shader::AvatarBlob> discs;
  for (std::size_t a = 0; a < o.avatars; ++a)
    discs.push_back(avatar_blob(crowd.position(a), kAvatarRadius, 0.0f));
  blobs.set_blobs(discs);

  const gpu::Pipeline color_pipeline =
      make_skin_pipeline(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
  OffscreenTarget target(ctx, o.width, o.height);
  auto draw_avatars = [&](VkCommandBuffer cmd, const gpu::Pipeline& pipeline) {
    const shader::SkinPush push{camera.view_proj, 0, 0, 0, 0};
    for (const batch::DrawCommand& d : draws.draws) {
      const std::array bindings{
          gpu::storage_buffer(arena.vertices().handle()), gpu::storage_buffer(palette.buffer().handle()),
          gpu::storage_buffer(types[d.type].instances.handle()), gpu::storage_buffer(slots.handle()),
          gpu::storage_buffer(types[d.type].properties.handle())};
      gpu::bind(ctx, cmd, pipeline, bindings, &push, sizeof push);
      vkCmdBindIndexBuffer(cmd, arena.indices().handle(), 0, VK_INDEX_TYPE_UINT32);
      const SkinMeshRange& r = arena.range(d.mesh);
      vkCmdDrawIndexed(cmd, r.index_count, d.instance_count, r.first_index,
                       static_cast<std::int32_t>(r.first_vertex), d.first_instance);
    }
  };

  AvatarSceneResult result;
  result.width = o.width;
  result.height = o.height;
  result.draws = stats.draws;
  result.draws_unbatched = stats.draws_unbatched;
  result.matrices = stats.matrices;
  Stopwatch frame;
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    palette.record_upload(cmd, o.upload);
    target.begin(cmd, glm::vec4(0.56f, 0.60f, 0.52f, 1.0f));  // the ground: the blobs darken it
    draw_avatars(cmd, color_pipeline);
    blobs.draw(cmd, camera.view_proj);
    target.end(cmd);
  });
  result.frame_ms = frame.elapsed_ms();
  result.rgba = target.read_color();

  if (o.id_pass) {
    const gpu::Pipeline id_pipeline =
        make_skin_id_pipeline(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      target.begin(cmd, glm::vec4(0.0f));
      draw_avatars(cmd, id_pipeline);
      target.end(cmd);
    });
    const std::vector<std::uint8_t> ids = target.read_color();
    const std::size_t palette_size = crowd.animator().palette_size();
    result.avatar_pixels.assign(o.avatars, 0);
    for (std::size_t i = 0; i + 3 < ids.size(); i += 4) {
      const std::uint32_t id = avatar_id_from_rgba(ids.data() + i);
      if (id == 0) continue;
      const std::size_t a = (id - 1) / palette_size;
      if (a < o.avatars && (id - 1) % palette_size == 0) {
        ++result.avatar_pixels[a];
      } else {
        ++result.unknown_id_pixels;
      }
    }
  }
  return result;
}

}  // namespace myriad::render
