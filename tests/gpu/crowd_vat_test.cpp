// VAT sampling in the crowd shaders (crowd_vat.glsl) equals the CPU sampling crowd::vat_sample_position
// bit for bit for chosen vertex columns, clips and times (frame boundaries, loop wrap-around, speeds),
// read back through a probe compute shader that runs the shaders' own sampling code.
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd/vat_sampling.hpp"
#include "myriad/crowd_bake/import/weld.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/shaders/crowd_layout.h"
#include "myriad_test_shaders.hpp"

namespace myriad::test {
namespace {

using render::shader::CrowdVatProbe;
using render::shader::CrowdVatProbePush;

class CrowdVatTest : public GpuTest {};

TEST_F(CrowdVatTest, ShaderSamplingEqualsCpuSampling) {
  const anim::ImportedModel model = crowd::make_enemy();
  const crowd::BakeMesh columns = crowd::weld(crowd::import_for_bake(model, "enemy").mesh).mesh;
  const crowd::Vat vat = crowd::bake_vat(model, columns, {});
  std::vector<crowd::VatClipRuntime> clips;
  for (const crowd::VatClip& c : vat.clips) clips.push_back(crowd::runtime_clip(c, vat.fps));
  const std::vector<std::uint32_t> texels = crowd::pack_vat_texels(vat.texels);

  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> column(0, vat.columns - 1);
  std::uniform_real_distribution<float> time(-3.0f, 40.0f);
  std::vector<CrowdVatProbe> probes;
  for (std::uint32_t clip = 0; clip < clips.size(); ++clip) {
    for (int i = 0; i < 500; ++i) probes.push_back({column(rng), clip, time(rng), 0u});
    // Exact frame times, the clip end and one loop later, where rounding decides the rows.
    for (int f = 0; f <= int(clips[clip].frames); ++f) {
      probes.push_back({column(rng), clip, float(f) / vat.fps, 0u});
      probes.push_back({column(rng), clip, clips[clip].duration + float(f) / vat.fps, 0u});
    }
    probes.push_back({column(rng), clip, clips[clip].duration, 0u});
    probes.push_back({column(rng), clip, crowd::entity_local_time(12.34f, 1.7f, 0.25f), 0u});
  }

  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer texel_buf(ctx(), texels.size() * 4, kStorage, gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer clip_buf(ctx(), clips.size() * sizeof(crowd::VatClipRuntime), kStorage,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer probe_buf(ctx(), probes.size() * sizeof(CrowdVatProbe), kStorage,
                        gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer out_buf(ctx(), probes.size() * 2 * sizeof(glm::vec4), kStorage, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), texel_buf, std::span<const std::uint32_t>(texels));
  gpu::upload(ctx(), clip_buf, std::span<const crowd::VatClipRuntime>(clips));
  gpu::upload(ctx(), probe_buf, std::span<const CrowdVatProbe>(probes));

  const gpu::Pipeline pipeline =
      gpu::make_compute_pipeline(ctx(), spirv::crowd_vat_probe_comp(),
                                 {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                  sizeof(CrowdVatProbePush)});
  const CrowdVatProbePush push{vat.columns, std::uint32_t(probes.size())};
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    const std::array bindings{gpu::storage_buffer(texel_buf), gpu::storage_buffer(clip_buf),
                              gpu::storage_buffer(probe_buf), gpu::storage_buffer(out_buf)};
    gpu::bind(ctx(), cmd, pipeline, bindings, &push, sizeof(push));
    vkCmdDispatch(cmd, (push.probe_count + 63) / 64, 1, 1);
  });
  const auto results = gpu::read_buffer_as<glm::vec4>(ctx(), out_buf, probes.size() * 2);

  int moving = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const CrowdVatProbe& p = probes[i];
    const crowd::VatFrame frame = crowd::vat_frame(clips[p.clip], p.local_time);
    const glm::vec3 expected =
        crowd::vat_sample_position(vat.texels, vat.columns, clips[p.clip], frame, p.column);
    ASSERT_EQ(glm::vec3(results[i * 2]), expected)
        << "probe " << i << " clip " << p.clip << " t " << p.local_time;
    // Normals are decoded with normalize() (GPU precision is looser there): compare by angle.
    const std::size_t row0 = std::size_t(frame.row0) * vat.columns + p.column;
    const glm::vec3 n0 = crowd::decode_normal_oct8(vat.texels[row0].w);
    EXPECT_GT(glm::dot(glm::vec3(results[i * 2 + 1]), n0), frame.blend < 0.5f ? 0.95f : -1.0f) << i;
    if (frame.row0 != frame.row1 && frame.blend > 0.0f) ++moving;
  }
  EXPECT_GT(moving, 500) << "the probes must exercise interpolation between rows";
}

}  // namespace
}  // namespace myriad::test
