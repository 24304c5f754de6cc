// Skeleton dedup (B6): skinning through the renderer skeleton is bit-identical to per-part skinning,
// on procedural avatars and on CesiumMan split into parts; matrix counts fall as B8 requires.
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/pose/pose.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace myriad::anim {
namespace {

std::vector<glm::mat4> posed_model(const Skeleton& s, const Clip& clip, float t) {
  SamplingCache cache;
  cache.reset(clip);
  LocalPose local;
  local.resize(s.size());
  sample(s, clip, t, cache, local);
  std::vector<glm::mat4> model(s.size());
  local_to_model(s.parents, local, model);
  return model;
}

// Skins every part both ways and requires identical bits.
void expect_bit_identical(const std::vector<SkinnedMesh>& meshes, const std::vector<PartSkin>& skins,
                          std::span<const glm::mat4> model) {
  const Dedup d = dedup_skeletons(skins);
  std::vector<Mat3x4> shared(d.renderer_skeleton.joints.size());
  build_palette(model, d.renderer_skeleton.joints, d.renderer_skeleton.inverse_binds, shared);
  std::size_t vertices = 0;
  for (std::size_t p = 0; p < meshes.size(); ++p) {
    std::vector<Mat3x4> own(skins[p].joints.size());
    build_palette(model, skins[p].joints, skins[p].inverse_binds, own);
    std::vector<glm::u16vec4> remapped = meshes[p].joints;
    remap_joints(remapped, d.remap[p]);
    for (std::size_t v = 0; v < meshes[p].positions.size(); ++v) {
      const glm::vec3 a =
          skin_position(own, meshes[p].joints[v], meshes[p].weights[v], meshes[p].positions[v]);
      const glm::vec3 b = skin_position(shared, remapped[v], meshes[p].weights[v], meshes[p].positions[v]);
      ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "part " << p << " vertex " << v;
      ++vertices;
    }
  }
  EXPECT_GT(vertices, 0u);
}

TEST(Dedup, ProceduralAvatarSkinsBitIdentically) {
  for (bool clothed : {false, true}) {
    const Avatar av = make_avatar({.clothed = clothed});
    ASSERT_EQ(av.parts.size(), clothed ? kAvatarBodyParts + 8 : kAvatarBodyParts);
    std::vector<SkinnedMesh> meshes;
    std::vector<PartSkin> skins;
    for (const AvatarPart& p : av.parts) {
      meshes.push_back(p.mesh);
      skins.push_back(p.skin);
    }
    const Clip walk = make_walk_clip(av.skeleton);
    for (float t : {0.1f, 0.45f, 0.8f})
      expect_bit_identical(meshes, skins, posed_model(av.skeleton, walk, t));
  }
}

TEST(Dedup, RendererSkeletonIsConsistentAndSmall) {
  const Avatar av = make_avatar({.clothed = true});
  std::vector<PartSkin> skins;
  std::size_t per_part = 0;
  for (const AvatarPart& p : av.parts) {
    skins.push_back(p.skin);
    per_part += p.skin.joints.size();
  }
  const Dedup d = dedup_skeletons(skins);
  EXPECT_EQ(d.renderer_skeleton.joints.size(), av.skeleton.size());  // every joint once: binds agree
  for (std::size_t i = 0; i < d.renderer_skeleton.joints.size(); ++i)
    EXPECT_EQ(d.renderer_skeleton.joints[i], i);
  // Consistent indices: the same joint maps to the same entry from every part.
  for (std::size_t p = 0; p < skins.size(); ++p) {
    for (std::size_t i = 0; i < skins[p].joints.size(); ++i)
      EXPECT_EQ(d.renderer_skeleton.joints[d.remap[p][i]], skins[p].joints[i]);
  }
  EXPECT_GE(static_cast<double>(per_part) / static_cast<double>(d.renderer_skeleton.joints.size()), 4.0);
}

TEST(Dedup, DifferentBindPosesStaySeparate) {
  PartSkin a{{3, 4}, {glm::mat4(1.0f), glm::mat4(2.0f)}};
  PartSkin b{{4, 3}, {glm::mat4(2.0f), glm::translate(glm::mat4(1.0f), {0, 1, 0})}};
  const Dedup d = dedup_skeletons(std::vector<PartSkin>{a, b});
  EXPECT_EQ(d.renderer_skeleton.joints.size(), 3u);  // joint 3 twice (two binds), joint 4 once
  EXPECT_EQ(d.remap[0][1], d.remap[1][0]);
  EXPECT_NE(d.remap[0][0], d.remap[1][1]);
}

TEST(Dedup, CesiumManSplitIntoPartsSkinsBitIdentically) {
  const auto path = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(path)) << "missing test asset " << path;
  const ImportedModel m = import_gltf(path);
  const std::vector<SplitPart> parts = split_into_parts(m.meshes[0], m.joints, m.inverse_binds, 17);
  ASSERT_GE(parts.size(), 5u);
  std::vector<SkinnedMesh> meshes;
  std::vector<PartSkin> skins;
  std::size_t triangles = 0;
  for (const SplitPart& p : parts) {
    meshes.push_back(p.mesh);
    skins.push_back(p.skin);
    triangles += p.mesh.indices.size() / 3;
  }
  EXPECT_EQ(triangles, m.meshes[0].indices.size() / 3);
  const auto model = posed_model(m.skeleton, m.clips[0], 0.9f);
  expect_bit_identical(meshes, skins, model);
  // And equal to skinning the unsplit mesh with the model's own palette.
  std::vector<Mat3x4> whole(m.joints.size());
  build_palette(model, m.joints, m.inverse_binds, whole);
  const Dedup d = dedup_skeletons(skins);
  std::vector<Mat3x4> shared(d.renderer_skeleton.joints.size());
  build_palette(model, d.renderer_skeleton.joints, d.renderer_skeleton.inverse_binds, shared);
  std::vector<glm::u16vec4> remapped = parts[0].mesh.joints;
  remap_joints(remapped, d.remap[0]);
  const glm::vec3 a =
      skin_position(shared, remapped[0], parts[0].mesh.weights[0], parts[0].mesh.positions[0]);
  const std::uint32_t v0 = m.meshes[0].indices[0];
  const glm::vec3 b =
      skin_position(whole, m.meshes[0].joints[v0], m.meshes[0].weights[v0], m.meshes[0].positions[v0]);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
}

}  // namespace
}  // namespace myriad::anim
