// Avatar customization and upload economy on lavapipe with validation on (SPEC B2, B7, B9): clothing
// patterns (stripes, checks, dots) show on the cloth in its tint and a contrasting tint, from the
// mesh's UVs and, for meshes without, from bind-pose positions, while pattern 0 and the body stay
// uniformly tinted; the renderer binds its pipeline once per pass and each batch type's buffers once
// per pass; with throttling only the posed avatars' palettes travel, and the GPU palette buffer still
// equals the CPU's after every frame, by staging copy and by compute upload.
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/anim/kit/material.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/core/image/srgb.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/avatars/avatar_crowd_renderer.hpp"
#include "myriad/render/avatars/batch_gpu.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::test {
namespace {

class AvatarCustomizationTest : public GpuTest {};

constexpr std::uint32_t kSize = 256;
constexpr glm::vec3 kLightTint{0.9f, 0.6f, 0.3f};  // luma > 0.3: the pattern's second colour is darker

// Every clothing renderer gets `tint` and `pattern` (each avatar renderer has one draw; which items an
// avatar wears is its outfit's business).
void dress(batch::AvatarCrowd& crowd, glm::vec3 tint, float pattern) {
  const float values[5] = {tint.r, tint.g, tint.b, 1.0f, pattern};
  const batch::DrawLayer& draws = crowd.scene().draws();
  for (std::size_t d = 0; d < draws.size(); ++d) {
    if (draws.renderer[d] != batch::kNoRenderer && draws.type[d] == crowd.clothing_type())
      crowd.scene().set_properties(draws.renderer[d], 0, values);
  }
}

// Three avatars in a row 0.9 m apart, seen from the front at 3.5 m, drawn as AvatarCrowdRenderer draws
// them: one pipeline bind, each batch type's buffers and SkinPush::pattern_float pushed once. In flat
// shading, where a pixel is its surface colour times one light factor, so the colour rules (tints,
// patterns, materials) can be read back from the image; the shading model is lighting_test.cpp's.
class ThreeAvatars {
 public:
  ThreeAvatars(gpu::Context& ctx, bool uvs, anim::Avatar kit = anim::make_avatar({.clothed = true}))
      : ctx_(ctx), av_(std::move(kit)), crowd_(av_, {.avatars = 3, .spacing = 0.9f}) {
    const float fov = glm::radians(50.0f);
    const glm::vec3 eye(0.9f, 1.0f, 3.5f);
    view_proj_ = perspective_infinite_reverse_z(fov, 1.0f, 0.1f) *
                 glm::lookAt(eye, glm::vec3(0.9f, 0.95f, 0.0f), kWorldUp);
    camera_.frustum = Frustum::from_view_proj(view_proj_, DepthConvention::kReverseZ);
    camera_.position = eye;
    camera_.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
    crowd_.frame(camera_, 0.3f);
    std::vector<anim::SkinnedMesh> meshes;
    std::vector<std::uint8_t> tintable;
    for (std::size_t p = 0; p < av_.parts.size(); ++p) {
      meshes.push_back(av_.parts[p].mesh);
      anim::remap_joints(meshes.back().joints, crowd_.dedup().remap[p]);
      if (!uvs) meshes.back().uvs.clear();  // patterns from the bind-pose position
      tintable.push_back(av_.parts[p].tintable ? 1 : 0);
    }
    arena_ = std::make_unique<render::SkinMeshArena>(ctx, meshes, tintable);
    materials_ = std::make_unique<render::SkinMaterials>(ctx, av_.materials, av_.textures);
    palette_ = std::make_unique<render::SkinPalette>(ctx, crowd_.palettes().size());
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      palette_->write(crowd_.palettes(), 0, crowd_.palettes().size());
      palette_->record_upload(cmd);
    });
    pipeline_ = render::make_skin_pipeline(ctx, render::OffscreenTarget::kColorFormat,
                                           render::OffscreenTarget::kDepthFormat);
  }

  // The image with every clothing part in `tint` and `pattern`.
  // Every renderer's LOD cross-fade word (batch::Batch::fade), as a fading avatar's levels carry it.
  void set_fade(std::uint32_t fade) {
    for (std::uint32_t r = 0; r < crowd_.scene().culling().size(); ++r) crowd_.scene().set_fade(r, fade);
  }

  std::vector<std::uint8_t> render(glm::vec3 tint, float pattern) {
    dress(crowd_, tint, pattern);
    crowd_.frame(camera_, 0.0f);  // the same pose: dt 0, never throttled
    if (!batches_) batches_ = std::make_unique<render::BatchGpuData>(ctx_, crowd_.scene());
    const batch::DrawList& dl = crowd_.draw_list();
    gpu::Buffer slots(ctx_, dl.instances.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      gpu::MemoryKind::kDeviceLocal);
    gpu::upload(ctx_, slots, std::span<const std::uint32_t>(dl.instances));
    render::OffscreenTarget target(ctx_, kSize, kSize);
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) {
      batches_->stage_changes(crowd_.scene());
      batches_->record_upload(cmd);
      target.begin(cmd, glm::vec4(0.0f));
      gpu::bind_pipeline(cmd, pipeline_.get(render::Shading::kFlat));
      vkCmdSetCullMode(cmd, VK_CULL_MODE_BACK_BIT);
      vkCmdBindIndexBuffer(cmd, arena_->indices().handle(), 0, VK_INDEX_TYPE_UINT32);
      const std::array<gpu::Binding, 4> fragment =
          render::skin_fragment_bindings(*materials_, shadow_receiver_, nullptr);
      for (std::size_t d = 0; d < dl.draws.size(); ++d) {
        const batch::DrawCommand& c = dl.draws[d];
        if (d == 0 || c.type != dl.draws[d - 1].type) {
          const render::shader::SkinPush push{view_proj_,
                                              0,
                                              0,
                                              0,
                                              0,
                                              render::skin_pattern_float(crowd_.scene().sets().get(c.type)),
                                              render::kSkinDefaultLight,
                                              glm::vec3(1.0f)};
          const std::array bindings{gpu::storage_buffer(arena_->vertices()),
                                    gpu::storage_buffer(palette_->buffer()),
                                    gpu::storage_buffer(batches_->instances(c.type)),
                                    gpu::storage_buffer(slots),
                                    gpu::storage_buffer(batches_->properties(c.type)),
                                    fragment[0],
                                    fragment[1],
                                    fragment[2],
                                    fragment[3]};
          gpu::bind_resources(ctx_, cmd, pipeline_.get(render::Shading::kFlat), bindings, &push, sizeof push);
        }
        const render::SkinMeshRange& r = arena_->range(c.mesh);
        vkCmdDrawIndexed(cmd, r.index_count, c.instance_count, r.first_index,
                         static_cast<std::int32_t>(r.first_vertex), c.first_instance);
      }
      target.end(cmd);
    });
    return target.read_color();
  }

 private:
  gpu::Context& ctx_;
  anim::Avatar av_;
  batch::AvatarCrowd crowd_;
  glm::mat4 view_proj_;
  batch::CullCamera camera_;
  std::unique_ptr<render::SkinMeshArena> arena_;
  std::unique_ptr<render::SkinMaterials> materials_;
  render::ShadowReceiver shadow_receiver_{ctx_};
  std::unique_ptr<render::SkinPalette> palette_;
  std::unique_ptr<render::BatchGpuData> batches_;
  render::ShadedPipeline pipeline_;
};

// |got - want| in 8-bit steps of a shaded channel: the UNORM rounding of two channels.
bool within_a_step(int got, float want) { return std::abs(static_cast<float>(got) - want) <= 1.0f; }

// Pixel i (RGBA8) is `tint` times one light factor: uniformly tinted, any shade.
bool tinted(const std::vector<std::uint8_t>& px, std::size_t i, glm::vec3 tint) {
  const float r = px[i];
  return within_a_step(px[i + 1], r * tint.g / tint.r) && within_a_step(px[i + 2], r * tint.b / tint.r);
}

void check_patterns(ThreeAvatars& avatar) {
  const std::vector<std::uint8_t> plain = avatar.render(kLightTint, 0.0f);
  // The clothing's pixels: those a different tint changes (the body keeps its skin tone).
  const std::vector<std::uint8_t> other = avatar.render({0.3f, 0.9f, 0.6f}, 0.0f);
  std::vector<std::size_t> cloth, body;
  for (std::size_t i = 0; i < plain.size(); i += 4) {
    if (plain[i + 3] == 0) continue;  // background
    (std::memcmp(&plain[i], &other[i], 4) != 0 ? cloth : body).push_back(i);
  }
  ASSERT_GT(cloth.size(), 2000u) << "the clothing is not in view";
  ASSERT_GT(body.size(), 200u) << "the body is not in view";
  // Pattern 0: every clothing pixel is the tint times its light, as before patterns existed.
  std::size_t off_tint = 0;
  for (std::size_t i : cloth) off_tint += tinted(plain, i, kLightTint) ? 0 : 1;
  EXPECT_EQ(off_tint, 0u) << "of " << cloth.size() << " clothing pixels with pattern 0";

  std::vector<std::vector<std::uint8_t>> patterned;
  for (float pattern : {1.0f, 2.0f, 3.0f}) {
    SCOPED_TRACE(pattern);
    patterned.push_back(avatar.render(kLightTint, pattern));
    const std::vector<std::uint8_t>& px = patterned.back();
    // The body is untouched (it has no pattern property).
    std::size_t body_changed = 0;
    for (std::size_t i : body) body_changed += std::memcmp(&plain[i], &px[i], 4) != 0;
    EXPECT_EQ(body_changed, 0u);
    // Cloth: the tint where the pattern is off, a clearly darker tint (0.45x) where it is on; the
    // pattern covers a good share of the cloth and leaves a good share plain.
    std::size_t darker = 0, lighter = 0, off_hue = 0;
    for (std::size_t i : cloth) {
      darker += px[i] < 0.6f * plain[i] ? 1 : 0;
      lighter += px[i] > plain[i] + 1 ? 1 : 0;
      off_hue += tinted(px, i, kLightTint) ? 0 : 1;
    }
    EXPECT_GT(darker, cloth.size() / 8) << "the pattern barely shows";
    EXPECT_LT(darker, cloth.size() * 7 / 8) << "the pattern covers the whole cloth";
    EXPECT_EQ(lighter, 0u);
    EXPECT_LT(off_hue, cloth.size() / 50) << "the second colour is not a shade of the tint";
  }
  // Three different patterns.
  for (std::size_t a = 0; a < patterned.size(); ++a) {
    for (std::size_t b = a + 1; b < patterned.size(); ++b) {
      std::size_t differ = 0;
      for (std::size_t i : cloth) differ += std::memcmp(&patterned[a][i], &patterned[b][i], 4) != 0;
      EXPECT_GT(differ, cloth.size() / 8) << "patterns " << a + 1 << " and " << b + 1;
    }
  }
  // Dark cloth gets a lighter second colour.
  const glm::vec3 dark(0.15f, 0.1f, 0.2f);
  const std::vector<std::uint8_t> dark_plain = avatar.render(dark, 0.0f);
  const std::vector<std::uint8_t> dark_striped = avatar.render(dark, 1.0f);
  std::size_t brighter = 0;
  for (std::size_t i : cloth) brighter += dark_striped[i] > dark_plain[i] + 10 ? 1 : 0;
  EXPECT_GT(brighter, cloth.size() / 8);
}

TEST_F(AvatarCustomizationTest, PatternsFollowTheUvs) {
  ThreeAvatars avatar(ctx(), true);
  check_patterns(avatar);
}

TEST_F(AvatarCustomizationTest, PatternsFollowTheBindPoseWithoutUvs) {
  ThreeAvatars avatar(ctx(), false);
  check_patterns(avatar);
}

render::FrameView front_view(glm::vec3 eye, glm::vec3 target, std::uint32_t size) {
  return render::FrameView::of_camera(render::SceneCamera::look_at(eye, target, glm::radians(50.0f)), size,
                                      size, kWorldUp);
}

// The material rules (anim::avatar_surface) on the GPU: four body parts of the procedural kit get a
// textured material (factor x texel, multiplied in linear light), a vertex-coloured one (COLOR_0), an
// alpha-masked one whose alpha is below its cutoff, and a colour-only one, none tintable; the rest
// stay tintable in their skin tone. Every drawn pixel must be one of the CPU reference's colours times
// one light factor, each unmasked part's colour must cover pixels, and the masked part's never.
TEST_F(AvatarCustomizationTest, PartsDrawTheirMaterialsAsTheCpuReference) {
  anim::Avatar kit = anim::make_avatar({.clothed = false});
  ASSERT_GE(kit.parts.size(), 5u);
  const auto add = [&](anim::Material m) {
    kit.materials.push_back(m);
    return static_cast<int>(kit.materials.size() - 1);
  };
  // A 2 x 2 texture of one sRGB colour: resampling and mips keep it.
  anim::Texture tex{"orange", 2, 2, {}};
  for (int i = 0; i < 4; ++i) tex.rgba8.insert(tex.rgba8.end(), {230, 140, 40, 255});
  kit.textures.push_back(tex);
  anim::Material textured{.name = "textured", .base_color_factor = {1.0f, 0.5f, 1.0f, 1.0f}};
  textured.base_color_texture = 0;
  anim::Material coloured{.name = "vertex colours"};
  anim::Material masked{.name = "masked", .base_color_factor = {1.0f, 0.0f, 1.0f, 0.3f}};
  masked.alpha_mode = anim::AlphaMode::kMask;
  masked.alpha_cutoff = 0.5f;
  anim::Material plain{.name = "colour only", .base_color_factor = {0.05f, 0.6f, 0.1f, 1.0f}};
  const glm::vec4 vertex_color(51.0f / 255.0f, 153.0f / 255.0f, 230.0f / 255.0f, 1.0f);  // exact in RGBA8
  const anim::Material* materials[4] = {&textured, &coloured, &masked, &plain};
  for (int p = 0; p < 4; ++p) {
    anim::AvatarPart& part = kit.parts[static_cast<std::size_t>(p)];
    part.mesh.material = add(*materials[p]);
    part.tintable = false;
    if (p == 1) part.mesh.colors.assign(part.mesh.positions.size(), vertex_color);
  }
  const glm::vec4 texel(srgb_to_linear(230.0f / 255.0f), srgb_to_linear(140.0f / 255.0f),
                        srgb_to_linear(40.0f / 255.0f), 1.0f);
  std::vector<glm::vec3> expected;
  for (int p = 0; p < 4; ++p) {
    const anim::SurfaceColor c =
        anim::avatar_surface(kit.materials[static_cast<std::size_t>(p)],
                             p == 1 ? vertex_color : glm::vec4(1.0f), texel, glm::vec3(1.0f), false);
    EXPECT_EQ(c.discarded, p == 2);
    expected.push_back(c.rgb);
  }
  ThreeAvatars avatars(ctx(), true, std::move(kit));
  const std::vector<std::uint8_t> px = avatars.render(kLightTint, 0.0f);
  // Pixel i is colour `e` times one light factor in [0.3, 1] (within 1.5 steps per channel).
  const auto shade_of = [&](std::size_t i, glm::vec3 e) {
    const int c = e.r >= e.g && e.r >= e.b ? 0 : (e.g >= e.b ? 1 : 2);
    const float light = float(px[i + std::size_t(c)]) / (255.0f * e[c]);
    if (light < 0.3f || light > 1.02f) return false;
    for (int k = 0; k < 3; ++k)
      if (std::abs(float(px[i + std::size_t(k)]) - 255.0f * e[k] * light) > 1.5f) return false;
    return true;
  };
  std::array<std::size_t, 4> hits{};
  std::size_t covered = 0;
  for (std::size_t i = 0; i < px.size(); i += 4) {
    if (px[i + 3] == 0) continue;
    ++covered;
    for (int p = 0; p < 4; ++p) hits[std::size_t(p)] += shade_of(i, expected[std::size_t(p)]) ? 1 : 0;
  }
  ASSERT_GT(covered, 2000u);
  EXPECT_GT(hits[0], 30u) << "the textured part";
  EXPECT_GT(hits[1], 30u) << "the vertex-coloured part";
  EXPECT_EQ(hits[2], 0u) << "the masked part was drawn";
  EXPECT_GT(hits[3], 30u) << "the colour-only part";
}

// skin.frag addresses a texture as its glTF sampler says (uv_wrap.glsl, the CPU's wrap_uv): a texture of
// two orange then two azure texels on three parts whose every UV is one point outside [0, 1]: u = 1.3
// repeating reads orange, u = 1.3 clamped the azure edge, u = 1.8 mirrored 0.2 (orange). The parts'
// factors change their hues, so a part read wrongly (a shader repeating everywhere would draw the second
// orange and the third azure) shows a colour no correct part has.
TEST_F(AvatarCustomizationTest, MaterialsAddressTheirTexturesAsTheirSamplers) {
  anim::Avatar kit = anim::make_avatar({.clothed = false});
  ASSERT_GE(kit.parts.size(), 3u);
  anim::Texture halves{"halves", 4, 1, {}};
  for (int i = 0; i < 4; ++i)
    halves.rgba8.insert(halves.rgba8.end(), {static_cast<std::uint8_t>(i < 2 ? 255 : 0), 128,
                                             static_cast<std::uint8_t>(i < 2 ? 0 : 255), 255});
  kit.textures.push_back(halves);
  const int texture = static_cast<int>(kit.textures.size() - 1);
  struct Case {
    UvWrapModes wrap;
    float u;
    glm::vec4 factor;
    bool red;
  };
  const Case cases[3] = {
      {{}, 1.3f, {1.0f, 1.0f, 1.0f, 1.0f}, true},
      {{UvWrap::kClampToEdge, UvWrap::kClampToEdge}, 1.3f, {1.0f, 0.25f, 1.0f, 1.0f}, false},
      {{UvWrap::kMirroredRepeat, UvWrap::kRepeat}, 1.8f, {1.0f, 1.0f, 0.25f, 1.0f}, true},
  };
  for (int p = 0; p < 3; ++p) {
    anim::Material m{.name = "wrapped", .base_color_factor = cases[p].factor};
    m.base_color_texture = texture;
    m.texture_wrap = cases[p].wrap;
    kit.materials.push_back(m);
    anim::AvatarPart& part = kit.parts[static_cast<std::size_t>(p)];
    part.mesh.material = static_cast<int>(kit.materials.size() - 1);
    part.mesh.uvs.assign(part.mesh.positions.size(), glm::vec2(cases[p].u, 0.5f));
    part.tintable = false;
  }
  // Expected and wrongly-addressed colours of each part, sRGB-encoded as the reference encodes them.
  const auto colour = [&](int p, bool red) {
    const float g = srgb_to_linear(128.0f / 255.0f);
    const glm::vec4 texel = red ? glm::vec4(1.0f, g, 0.0f, 1.0f) : glm::vec4(0.0f, g, 1.0f, 1.0f);
    return anim::avatar_surface(kit.materials[kit.materials.size() - 3 + static_cast<std::size_t>(p)],
                                glm::vec4(1.0f), texel, glm::vec3(1.0f), false)
        .rgb;
  };
  std::array<glm::vec3, 3> want{}, wrong{};
  for (int p = 0; p < 3; ++p) {
    want[static_cast<std::size_t>(p)] = colour(p, cases[p].red);
    wrong[static_cast<std::size_t>(p)] = colour(p, !cases[p].red);
  }
  ThreeAvatars avatars(ctx(), true, std::move(kit));
  const std::vector<std::uint8_t> px = avatars.render(kLightTint, 0.0f);
  // A pixel of colour `e` times one light factor: only e's non-zero channels lit, in proportion.
  const auto lit_as = [&](std::size_t i, glm::vec3 e) {
    const int c = e.r >= e.b ? 0 : 2;
    const float light = float(px[i + std::size_t(c)]) / (255.0f * e[c]);
    if (light < 0.3f || light > 1.02f) return false;
    for (int k = 0; k < 3; ++k)
      if (std::abs(float(px[i + std::size_t(k)]) - 255.0f * e[k] * light) > 1.5f) return false;
    return true;
  };
  std::array<std::size_t, 3> hits{}, misses{};
  for (std::size_t i = 0; i < px.size(); i += 4) {
    if (px[i + 3] == 0) continue;
    for (std::size_t p = 0; p < 3; ++p) {
      hits[p] += lit_as(i, want[p]) ? 1 : 0;
      misses[p] += lit_as(i, wrong[p]) ? 1 : 0;
    }
  }
  for (std::size_t p = 0; p < 3; ++p) {
    EXPECT_GT(hits[p], 30u) << "part " << p;
    EXPECT_EQ(misses[p], 0u) << "part " << p << " read its texture addressed wrongly";
  }
}

TEST_F(AvatarCustomizationTest, RendererBindsOncePerPassAndDrawsPatterns) {
  render::AvatarCrowdRenderer avatars(ctx(), {.avatars = 4, .spacing = 1.0f}, true,
                                      render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  render::OffscreenTarget target(ctx(), 128, 128);
  render::SceneFrame frame(ctx());
  const render::FrameView view = front_view({0.5f, 1.2f, 4.0f}, {0.5f, 0.9f, -0.5f}, 128);
  render::FrameSystem* const systems[] = {&avatars};
  auto image = [&](float pattern) {
    dress(avatars.crowd(), kLightTint, pattern);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, systems, target, glm::vec4(0.0f), nullptr, 0.0f);
    });
    avatars.finish_frame();
    return target.read_color();
  };
  const std::vector<std::uint8_t> plain = image(0.0f);
  const render::AvatarDrawStats& s = avatars.stats();
  const std::uint64_t passes = frame.two_phase() ? 2 : 1;
  EXPECT_GT(s.draws, 2u);        // one per part mesh worn
  EXPECT_EQ(s.batch_types, 2u);  // body and clothing
  EXPECT_EQ(s.pipeline_binds, passes);
  EXPECT_EQ(s.descriptor_binds, passes * 2);
  const std::vector<std::uint8_t> checks = image(2.0f);
  std::size_t covered = 0, changed = 0;
  for (std::size_t i = 0; i < plain.size(); i += 4) {
    covered += plain[i + 3] != 0 ? 1 : 0;
    changed += std::memcmp(&plain[i], &checks[i], 4) != 0 ? 1 : 0;
  }
  EXPECT_GT(covered, 1000u);
  EXPECT_GT(changed, covered / 10) << "the renderer does not pass the clothing's pattern";
}

// The LOD cross-fade's dither masks: at q = 128 the incoming level keeps about half of the pixels the
// avatars cover whole, the outgoing level exactly the others (no pixel twice, none lost).
TEST_F(AvatarCustomizationTest, CrossFadeLevelsDrawComplementaryHalves) {
  ThreeAvatars avatars(ctx(), true);
  const std::vector<std::uint8_t> whole = avatars.render(kLightTint, 0.0f);
  avatars.set_fade(128u | 0x100u);
  const std::vector<std::uint8_t> incoming = avatars.render(kLightTint, 0.0f);
  avatars.set_fade(128u);
  const std::vector<std::uint8_t> outgoing = avatars.render(kLightTint, 0.0f);
  std::size_t covered = 0, in = 0, out = 0, both = 0, stray = 0;
  for (std::size_t i = 3; i < whole.size(); i += 4) {
    const bool w = whole[i] != 0, a = incoming[i] != 0, b = outgoing[i] != 0;
    covered += w;
    in += a;
    out += b;
    both += a && b;
    stray += (a || b) && !w;
  }
  ASSERT_GT(covered, 2000u);
  EXPECT_GT(in, covered * 4 / 10);
  EXPECT_LT(in, covered * 6 / 10);
  EXPECT_EQ(both, 0u) << "pixels drawn by both levels";
  EXPECT_EQ(in + out, covered) << "pixels lost or added by the masks";
  EXPECT_EQ(stray, 0u);
}

// The frame's sun colour reaches the avatars: under a red sun the lit sides lose green and blue and keep
// their red; the ambient share stays white.
TEST_F(AvatarCustomizationTest, AvatarsTakeTheSunColourFromTheFrame) {
  render::AvatarCrowdRenderer avatars(ctx(), {.avatars = 4, .spacing = 1.0f}, true,
                                      render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  render::OffscreenTarget target(ctx(), 128, 128);
  render::SceneFrame frame(ctx());
  render::FrameView view = front_view({0.5f, 1.2f, 4.0f}, {0.5f, 0.9f, -0.5f}, 128);
  view.to_light = glm::normalize(glm::vec3(0.3f, 0.6f, 1.0f));  // from behind the camera: most of it lit
  render::FrameSystem* const systems[] = {&avatars};
  const auto image = [&](glm::vec3 sun) {
    view.sun_color = sun;
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, systems, target, glm::vec4(0.0f), nullptr, 0.0f);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> white = image(glm::vec3(1.0f));
  const std::vector<std::uint8_t> red = image(glm::vec3(1.0f, 0.3f, 0.3f));
  std::size_t covered = 0, greener = 0, less_green = 0, red_changed = 0;
  for (std::size_t i = 0; i < white.size(); i += 4) {
    if (white[i + 3] == 0) continue;
    ++covered;
    red_changed += std::abs(int(white[i]) - int(red[i])) > 1 ? 1 : 0;
    less_green += red[i + 1] + 2 < white[i + 1] ? 1 : 0;
    greener += red[i + 1] > white[i + 1] ? 1 : 0;
  }
  ASSERT_GT(covered, 1000u);
  EXPECT_GT(less_green, covered / 4) << "the sun's colour does not reach the avatars";
  EXPECT_EQ(greener, 0u);
  EXPECT_EQ(red_changed, 0u);
}

// LOD groups on the GPU path: a 6 x 6 grid of avatars seen along its rows, so near avatars draw level 0
// and far ones lower levels (those in a cross-fade band both of theirs, dithered); every level is drawn
// somewhere, the same avatars are seen, the vertices the GPU drew equal the CPU draw list's (6 m
// apart, seen from 5 m up, no avatar hides another whole), and fewer than without LOD groups.
TEST_F(AvatarCustomizationTest, LodGroupsDrawWhatTheCpuSelected) {
  render::OffscreenTarget target(ctx(), 128, 128);
  render::SceneFrame frame(ctx());
  const render::FrameView view = front_view({3.0f, 5.0f, 5.0f}, {3.0f, 0.0f, -20.0f}, 128);
  const auto vertices_drawn = [&](std::uint32_t levels, render::AvatarDrawStats& stats) {
    render::AvatarCrowdRenderer avatars(
        ctx(), {.avatars = 36, .spacing = 6.0f, .origin = {-12.0f, 0.0f, 0.0f}, .lod_levels = levels}, true,
        render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
    render::FrameSystem* const systems[] = {&avatars};
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, systems, target, glm::vec4(0.0f), nullptr, 0.0f);
    });
    avatars.finish_frame();
    stats = avatars.stats();
    return stats.vertices;
  };
  render::AvatarDrawStats full, lod;
  const std::uint64_t without = vertices_drawn(1, full);
  const std::uint64_t with = vertices_drawn(3, lod);
  EXPECT_EQ(full.avatars_per_lod[0], full.frustum_passed);
  for (int l = 0; l < 3; ++l) EXPECT_GT(lod.avatars_per_lod[std::size_t(l)], 0u) << "level " << l;
  EXPECT_EQ(lod.frustum_passed, full.frustum_passed) << "LOD groups changed which avatars are in view";
  // Avatars in a cross-fade band draw two levels yet count once (the GPU's visible avatars).
  EXPECT_EQ(lod.visible, full.visible);
  EXPECT_EQ(lod.occluded, 0u);
  EXPECT_EQ(with, lod.vertices_listed) << "the GPU drew other levels than the CPU selected";
  EXPECT_EQ(without, full.vertices_listed);
  EXPECT_LT(with, without);
}

TEST_F(AvatarCustomizationTest, ThrottledFramesUploadOnlyThePosedPalettes) {
  for (const render::PaletteUpload how :
       {render::PaletteUpload::kStagingCopy, render::PaletteUpload::kCompute}) {
    SCOPED_TRACE(how == render::PaletteUpload::kCompute ? "compute upload" : "staging copy");
    // 7 x 7 avatars 12 m apart seen from a corner: distances from 3 m to 100 m, all four throttle bands.
    constexpr std::size_t kAvatars = 49;
    render::AvatarCrowdRenderer avatars(ctx(), {.avatars = kAvatars, .spacing = 12.0f, .throttle = true},
                                        false, render::OffscreenTarget::kColorFormat,
                                        render::OffscreenTarget::kDepthFormat);
    avatars.set_palette_upload(how);
    render::OffscreenTarget target(ctx(), 64, 64);
    render::SceneFrame frame(ctx());
    const render::FrameView view = front_view({-2.0f, 2.0f, 2.0f}, {36.0f, 0.0f, -36.0f}, 64);
    render::FrameSystem* const systems[] = {&avatars};
    const std::size_t palette_bytes = avatars.crowd().animator().palette_size() * sizeof(anim::Mat3x4);
    std::size_t fewest = kAvatars;
    for (int f = 0; f < 10; ++f) {
      SCOPED_TRACE(f);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) {
        frame.record(cmd, view, systems, target, glm::vec4(0.0f), nullptr, 1.0f / 30.0f);
      });
      avatars.finish_frame();
      std::size_t updated = 0;
      for (std::uint8_t u : avatars.crowd().updated()) updated += u;
      if (f == 0) {
        EXPECT_EQ(updated, kAvatars);  // everyone's first palette
      }
      fewest = std::min(fewest, updated);
      EXPECT_EQ(avatars.stats().skeletons_updated, updated);
      EXPECT_EQ(avatars.stats().palette_bytes_uploaded, updated * palette_bytes);
      // What stayed on the GPU and what was uploaded make the CPU's palettes exactly.
      const std::span<const anim::Mat3x4> cpu = avatars.crowd().palettes();
      const std::vector<anim::Mat3x4> gpu_palettes =
          gpu::read_buffer_as<anim::Mat3x4>(ctx(), avatars.palette().buffer(), cpu.size());
      EXPECT_EQ(std::memcmp(gpu_palettes.data(), cpu.data(), cpu.size_bytes()), 0);
    }
    EXPECT_LT(fewest * 2, kAvatars) << "throttling skipped too few avatars";
    EXPECT_GT(fewest, 0u);
  }
}

}  // namespace
}  // namespace myriad::test
