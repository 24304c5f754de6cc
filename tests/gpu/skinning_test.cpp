// GPU skinning (SPEC B4, B7) on lavapipe with validation on: avatars' palettes go into the global
// palette buffer by staging copy, skin.vert skins every vertex of every instance of a batched draw,
// and the read-back world positions equal anim::skin_position + the instance transform bit for bit.
// A second check draws the whole batched crowd (indexed, instanced) into an OffscreenTarget and sees it.
#include <array>
#include <cstring>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/pipeline/rendering.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/avatars/batch_gpu.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"

namespace myriad::test {
namespace {

class SkinningTest : public GpuTest {};

batch::CullCamera camera(glm::mat4& view_proj) {
  const float fov = glm::radians(60.0f);
  const glm::vec3 eye(1.0f, 1.5f, 5.0f);
  view_proj = perspective_infinite_reverse_z(fov, 1.0f, 0.1f) *
              glm::lookAt(eye, glm::vec3(1.0f, 1.0f, 0.0f), kWorldUp);
  batch::CullCamera c;
  c.frustum = Frustum::from_view_proj(view_proj, DepthConvention::kReverseZ);
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  return c;
}

float row_dot(const glm::vec4& r, const glm::vec3& p) { return r.x * p.x + r.y * p.y + r.z * p.z + r.w; }

// The capture pass writes float positions, so it renders into its own RGBA32F image (OffscreenTarget
// is RGBA8 + depth); every image pass below uses OffscreenTarget.
void begin_capture(VkCommandBuffer cmd, VkImageView color, std::uint32_t w, std::uint32_t h) {
  const glm::vec4 clear(0.0f);
  const VkRenderingAttachmentInfo color_att = gpu::color_attachment(color, &clear);
  gpu::begin_rendering(cmd, w, h, &color_att, nullptr);
}

TEST_F(SkinningTest, VertexShaderSkinningEqualsCpu) {
  const anim::Avatar av = anim::make_avatar({.clothed = true, .ring_segments = 6, .rings = 3});
  batch::AvatarCrowd crowd(av, {.avatars = 3, .spacing = 1.0f, .outfit = {.everything = true}});
  glm::mat4 view_proj;
  const batch::CullCamera cam = camera(view_proj);
  const batch::CrowdFrameStats stats = crowd.frame(cam, 0.37f);
  ASSERT_EQ(stats.draws, av.parts.size());  // every part of the 3 avatars visible, one draw per part

  // Meshes with joints in renderer-skeleton indices (dedup), as the GPU reads them.
  std::vector<anim::SkinnedMesh> meshes;
  for (std::size_t p = 0; p < av.parts.size(); ++p) {
    meshes.push_back(av.parts[p].mesh);
    anim::remap_joints(meshes.back().joints, crowd.dedup().remap[p]);
  }
  render::SkinMeshArena arena(ctx(), meshes);
  render::SkinPalette palette(ctx(), crowd.palettes().size());
  palette.write(crowd.palettes(), 0, crowd.palettes().size());
  EXPECT_EQ(palette.pending_regions(), 1u);

  const batch::DrawList& dl = crowd.draw_list();
  std::vector<gpu::Buffer> instance_bufs, property_bufs;
  for (std::size_t t = 0; t < crowd.scene().batch_count(); ++t) {
    const batch::Batch& b = crowd.scene().batch(static_cast<batch::BatchType>(t));
    const auto packed = render::pack_skin_instances(b);
    const std::size_t n = std::max<std::size_t>(packed.size(), 1);
    instance_bufs.emplace_back(ctx(), n * sizeof(render::shader::SkinInstance),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    property_bufs.emplace_back(ctx(), std::max<std::size_t>(b.properties.size(), 4) * sizeof(float),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    if (!packed.empty())
      gpu::upload(ctx(), instance_bufs.back(), std::span<const render::shader::SkinInstance>(packed));
    if (!b.properties.empty()) gpu::upload(ctx(), property_bufs.back(), std::span<const float>(b.properties));
  }
  gpu::Buffer slots(ctx(), dl.instances.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), slots, std::span<const std::uint32_t>(dl.instances));

  // Capture: every vertex of every instance of every draw, one pixel each.
  std::uint32_t total = 0;
  for (const batch::DrawCommand& d : dl.draws) total += arena.range(d.mesh).vertex_count * d.instance_count;
  constexpr std::uint32_t kWidth = 256;
  const std::uint32_t height = (total + kWidth - 1) / kWidth;
  gpu::Image capture(ctx(),
                     {render::kSkinCaptureFormat, kWidth, height, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT});
  const gpu::Pipeline pipeline = render::make_skin_capture_pipeline(ctx());
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    palette.record_upload(cmd);
    gpu::image_barrier(
        cmd, {capture.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
              VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
              VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
    begin_capture(cmd, capture.view(), kWidth, height);
    std::uint32_t base = 0;
    for (const batch::DrawCommand& d : dl.draws) {
      const render::SkinMeshRange& r = arena.range(d.mesh);
      const render::shader::SkinPush push{glm::mat4(1.0f), kWidth, height, base, r.vertex_count, 0};
      const std::array bindings{gpu::storage_buffer(arena.vertices()), gpu::storage_buffer(palette.buffer()),
                                gpu::storage_buffer(instance_bufs[d.type]), gpu::storage_buffer(slots),
                                gpu::storage_buffer(property_bufs[d.type])};
      gpu::bind(ctx(), cmd, pipeline, bindings, &push, sizeof push);
      vkCmdDraw(cmd, r.vertex_count, d.instance_count, r.first_vertex, d.first_instance);
      base += r.vertex_count * d.instance_count;
    }
    vkCmdEndRendering(cmd);
    gpu::image_barrier(
        cmd,
        {capture.handle(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
         VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT});
  });
  const std::vector<std::byte> bytes = gpu::read_image(ctx(), capture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ASSERT_EQ(bytes.size(), std::size_t{kWidth} * height * 16);

  // CPU reference: the same vertices, palettes and instance rows.
  std::uint32_t k = 0, mismatches = 0;
  float worst = 0.0f;
  for (const batch::DrawCommand& d : dl.draws) {
    const batch::Batch& b = crowd.scene().batch(d.type);
    const render::SkinMeshRange& r = arena.range(d.mesh);
    const anim::SkinnedMesh& mesh = meshes[d.mesh];
    for (std::uint32_t j = 0; j < d.instance_count; ++j) {
      const std::uint32_t slot = dl.instances[d.first_instance + j];
      const std::span<const anim::Mat3x4> pal = crowd.palettes().subspan(b.palette_offset[slot]);
      for (std::uint32_t v = 0; v < r.vertex_count; ++v, ++k) {
        const glm::vec3 s = anim::skin_position(pal, mesh.joints[v], mesh.weights[v], mesh.positions[v]);
        const Mat3x4& m = b.object_to_world[slot];
        const glm::vec3 want(row_dot(m.rows[0], s), row_dot(m.rows[1], s), row_dot(m.rows[2], s));
        glm::vec4 got;
        std::memcpy(&got, bytes.data() + std::size_t{k} * 16, 16);
        if (std::memcmp(&got, &want, 12) != 0) {
          ++mismatches;
          worst = std::max(worst, glm::length(glm::vec3(got) - want));
        }
        ASSERT_EQ(got.w, 1.0f) << "pixel " << k << " not written";
      }
    }
  }
  EXPECT_EQ(k, total);
  EXPECT_EQ(mismatches, 0u) << "of " << total << " vertices; largest difference " << worst;
}

TEST_F(SkinningTest, BatchedCrowdDrawsIntoTheImage) {
  const anim::Avatar av = anim::make_avatar({.clothed = false});
  batch::AvatarCrowd crowd(av, {.avatars = 4, .spacing = 0.8f});
  glm::mat4 view_proj;
  crowd.frame(camera(view_proj), 0.2f);
  std::vector<anim::SkinnedMesh> meshes;
  for (std::size_t p = 0; p < av.parts.size(); ++p) {
    meshes.push_back(av.parts[p].mesh);
    anim::remap_joints(meshes.back().joints, crowd.dedup().remap[p]);
  }
  render::SkinMeshArena arena(ctx(), meshes);
  const render::SkinMaterials materials(ctx(), av.materials, av.textures);
  const render::ShadowReceiver receiver(ctx());
  render::SkinPalette palette(ctx(), crowd.palettes().size());
  // Two ranges (avatars 0-1, then 2-3) that merge into one copy region.
  const std::size_t half = 2 * crowd.animator().palette_size();
  palette.write(crowd.palettes(), 0, half);
  palette.write(crowd.palettes(), half, crowd.palettes().size() - half);
  EXPECT_EQ(palette.pending_regions(), 1u);
  const batch::Batch& b = crowd.scene().batch(crowd.body_type());
  const auto packed = render::pack_skin_instances(b);
  gpu::Buffer inst(ctx(), packed.size() * sizeof(render::shader::SkinInstance),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer props(ctx(), b.properties.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer slots(ctx(), crowd.draw_list().instances.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), inst, std::span<const render::shader::SkinInstance>(packed));
  gpu::upload(ctx(), props, std::span<const float>(b.properties));
  gpu::upload(ctx(), slots, std::span<const std::uint32_t>(crowd.draw_list().instances));
  constexpr std::uint32_t kSize = 128;
  render::OffscreenTarget target(ctx(), kSize, kSize);
  const render::ShadedPipeline shaded = render::make_skin_pipeline(
      ctx(), render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
  const gpu::Pipeline& pipeline = shaded.get(render::Shading::kFull);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    palette.record_upload(cmd);
    target.begin(cmd, glm::vec4(0.0f));
    const render::shader::SkinPush push{view_proj, 0, 0, 0, 0, 0, render::kSkinDefaultLight, glm::vec3(1.0f)};
    const std::array<gpu::Binding, 4> fragment = render::skin_fragment_bindings(materials, receiver, nullptr);
    const std::array bindings{gpu::storage_buffer(arena.vertices()),
                              gpu::storage_buffer(palette.buffer()),
                              gpu::storage_buffer(inst),
                              gpu::storage_buffer(slots),
                              gpu::storage_buffer(props),
                              fragment[0],
                              fragment[1],
                              fragment[2],
                              fragment[3]};
    gpu::bind(ctx(), cmd, pipeline, bindings, &push, sizeof push);
    vkCmdSetCullMode(cmd, VK_CULL_MODE_BACK_BIT);
    vkCmdBindIndexBuffer(cmd, arena.indices().handle(), 0, VK_INDEX_TYPE_UINT32);
    for (const batch::DrawCommand& d : crowd.draw_list().draws) {
      const render::SkinMeshRange& r = arena.range(d.mesh);
      vkCmdDrawIndexed(cmd, r.index_count, d.instance_count, r.first_index,
                       static_cast<std::int32_t>(r.first_vertex), d.first_instance);
    }
    target.end(cmd);
  });
  const std::vector<std::uint8_t> px = target.read_color();
  std::size_t covered = 0;
  for (std::size_t i = 0; i < px.size(); i += 4) covered += px[i + 3] != 0 ? 1 : 0;
  EXPECT_EQ(crowd.draw_list().draws.size(), anim::kAvatarBodyParts);
  EXPECT_GT(covered, 500u);  // four avatars fill a good part of the 128x128 view
  EXPECT_LT(covered, std::size_t{kSize} * kSize);
}

TEST_F(SkinningTest, BatchDataUploadsOnlyWhatChanged) {
  batch::PropertySetRegistry sets;
  const batch::BatchType tint = sets.add({"tint", {{"tint", 4}}, {1, 1, 1, 1}});
  batch::BatchScene scene(sets);
  const batch::DrawDesc draws[2] = {{0, 0, tint, {}}, {1, 0, 0, {}}};
  for (int i = 0; i < 40; ++i) {
    batch::RendererDesc r;
    r.object_to_world = glm::translate(glm::mat4(1.0f), glm::vec3(static_cast<float>(i), 0, 0));
    r.palette_offset = static_cast<std::uint32_t>(7 * i);
    r.draws = draws;
    scene.add_renderer(r);
  }
  render::BatchGpuData gpu_data(ctx(), scene);
  auto expect_gpu_matches = [&] {
    for (batch::BatchType t : {batch::BatchType{0}, tint}) {
      const batch::Batch& b = scene.batch(t);
      const auto want = render::pack_skin_instances(b);
      const auto got =
          gpu::read_buffer_as<render::shader::SkinInstance>(ctx(), gpu_data.instances(t), want.size());
      EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof want[0]), 0) << "type " << t;
      if (!b.properties.empty()) {
        EXPECT_EQ(gpu::read_buffer_as<float>(ctx(), gpu_data.properties(t), b.properties.size()),
                  b.properties);
      }
    }
  };
  // First upload: everything (40 instances in each of two types + 40 x 4 property floats).
  EXPECT_EQ(gpu_data.stage_changes(scene), 80 * sizeof(render::shader::SkinInstance) + 160 * sizeof(float));
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { gpu_data.record_upload(cmd); });
  expect_gpu_matches();
  // Nothing changed: nothing staged, nothing copied.
  EXPECT_EQ(gpu_data.stage_changes(scene), 0u);
  EXPECT_EQ(gpu_data.pending_regions(), 0u);
  // One renderer moves and one gets a new tint: only their instances travel.
  scene.set_transform(17, glm::translate(glm::mat4(1.0f), glm::vec3(0, 5, 0)), {{0, 5, 0}, 1.0f});
  const float red[4] = {1, 0, 0, 1};
  scene.set_properties(17, 0, red);
  EXPECT_EQ(gpu_data.stage_changes(scene), 2 * sizeof(render::shader::SkinInstance) + 4 * sizeof(float));
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { gpu_data.record_upload(cmd); });
  expect_gpu_matches();
}

}  // namespace
}  // namespace myriad::test
