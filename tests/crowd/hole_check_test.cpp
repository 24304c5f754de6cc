// The silhouette hole check (SPEC C7): nothing for identical meshes, a punched hole above the 1 %
// limit, an inflated mesh beyond the loss limit, and back-face culling by material.
#include "myriad/crowd_bake/lod/hole_check.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/lod/silhouette_raster.hpp"
#include "remesh_test_meshes.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>

#include <unistd.h>

namespace myriad::crowd {
namespace {

const std::vector<BakeMaterial> kSingleSided = {{"skin", glm::vec4(1.0f), -1, false}};
const std::vector<BakeMaterial> kDoubleSided = {{"cloth", glm::vec4(1.0f), -1, true}};

// The box without the triangles of the face at +z whose centres lie within `half` of its middle.
BakeMesh punched_box(int n, float half) {
  BakeMesh box = test::make_grid_box(n);
  BakeMesh out = box;
  out.indices.clear();
  out.triangle_material.clear();
  for (std::size_t t = 0; t < box.triangle_count(); ++t) {
    const glm::vec3 c = (box.positions[box.indices[3 * t]] + box.positions[box.indices[3 * t + 1]] +
                         box.positions[box.indices[3 * t + 2]]) /
                        3.0f;
    if (c.z > 0.49f && std::abs(c.x) < half && std::abs(c.y) < half) continue;
    out.indices.insert(out.indices.end(), box.indices.begin() + static_cast<std::ptrdiff_t>(3 * t),
                       box.indices.begin() + static_cast<std::ptrdiff_t>(3 * t + 3));
    out.triangle_material.push_back(box.triangle_material[t]);
  }
  return out;
}

TEST(HoleCheck, IdenticalMeshesHaveNoHolesAndNoLoss) {
  const BakeMesh humanoid = test::make_capsule_humanoid();
  const HoleCheckResult result = check_holes(humanoid, humanoid, kSingleSided, {});
  ASSERT_EQ(result.views.size(), 11u);
  EXPECT_EQ(result.worst_holes, 0.0f);
  EXPECT_EQ(result.worst_loss, 0.0f);
  EXPECT_TRUE(result.passed);
}

TEST(HoleCheck, DetectsAPunchedHole) {
  const BakeMesh box = test::make_grid_box(8);
  const HoleCheckResult result = check_holes(box, punched_box(8, 0.25f), kSingleSided, {});
  EXPECT_GT(result.worst_holes, 0.01f);
  EXPECT_FALSE(result.passed);
  // The hole is in the +z face: the worst view looks at it from the +z side.
  EXPECT_LT(result.views[static_cast<std::size_t>(result.worst_holes_view)].direction.z, 0.0f);
  EXPECT_EQ(result.worst_loss, 0.0f);
}

TEST(HoleCheck, FlagsAnInflatedMeshBeyondTheLossLimitButNotOneWithinTheMargin) {
  const BakeMesh box = test::make_grid_box(4);
  BakeMesh inflated = box, slightly = box;
  for (glm::vec3& p : inflated.positions) p *= 1.15f;
  for (glm::vec3& p : slightly.positions) p *= 1.01f;
  const HoleCheckResult big = check_holes(box, inflated, kSingleSided, {});
  EXPECT_GT(big.worst_loss, 0.06f);
  EXPECT_EQ(big.worst_holes, 0.0f);
  EXPECT_FALSE(big.passed);
  const HoleCheckResult small = check_holes(box, slightly, kSingleSided, {});
  EXPECT_EQ(small.worst_loss, 0.0f);  // within the 2 px margin everywhere
  EXPECT_TRUE(small.passed);
}

TEST(HoleCheck, HonoursBackFaceCullingPerMaterial) {
  // Through the hole of a single-sided box the inside of the far face is culled: a hole. With a
  // double-sided material that far face fills the hole in every view.
  const BakeMesh box = test::make_grid_box(8);
  const BakeMesh punched = punched_box(8, 0.25f);
  EXPECT_GT(check_holes(box, punched, kSingleSided, {}).worst_holes, 0.01f);
  EXPECT_EQ(check_holes(box, punched, kDoubleSided, {}).worst_holes, 0.0f);

  // One quad facing +z: seen from the +z side only, unless double-sided.
  BakeMesh quad;
  for (const glm::vec3 p : {glm::vec3(-0.5f, -0.5f, 0.0f), glm::vec3(0.5f, -0.5f, 0.0f),
                            glm::vec3(0.5f, 0.5f, 0.0f), glm::vec3(-0.5f, 0.5f, 0.0f)}) {
    test::add_vertex(quad, p, {0.0f, 0.0f, 1.0f}, {0.0f, 0.0f}, 0);
  }
  test::add_triangle(quad, 0, 1, 2);
  test::add_triangle(quad, 0, 2, 3);
  auto pixels = [&](const std::vector<BakeMaterial>& materials, glm::vec3 direction) {
    const std::vector<std::uint8_t> mask =
        rasterize_silhouette(quad, materials, frame_silhouette(quad, direction, 64));
    return std::accumulate(mask.begin(), mask.end(), 0);
  };
  EXPECT_GT(pixels(kSingleSided, {0.0f, 0.0f, -1.0f}), 1000);
  EXPECT_EQ(pixels(kSingleSided, {0.0f, 0.0f, 1.0f}), 0);
  EXPECT_EQ(pixels(kDoubleSided, {0.0f, 0.0f, 1.0f}), pixels(kDoubleSided, {0.0f, 0.0f, -1.0f}));
}

// A candidate equal to the original in the bind pose but skinned wrongly (every vertex on the root
// joint) passes the bind-pose check and fails in motion: the limbs move away from it.
TEST(HoleCheck, CatchesWhatOnlyMotionShows) {
  const anim::ImportedModel model = make_enemy();
  const BakeSource src = import_for_bake(model, "enemy");
  BakeMesh rigid = src.mesh;
  for (std::size_t v = 0; v < rigid.vertex_count(); ++v) {
    rigid.joints[v] = glm::u16vec4(0);
    rigid.weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  }
  const HoleCheckOptions options;
  EXPECT_TRUE(check_holes(src.mesh, rigid, src.materials, options).passed);
  const MotionPoses motion = motion_poses(model, options.frames_per_clip);
  EXPECT_TRUE(motion.skipped_clips.empty());
  ASSERT_EQ(motion.poses.size(), model.clips.size() * static_cast<std::size_t>(options.frames_per_clip));
  const std::vector<MotionPose>& poses = motion.poses;
  const HoleCheckResult moving = check_holes_in_motion(src.mesh, rigid, src.materials, options, poses);
  EXPECT_FALSE(moving.passed);
  ASSERT_GE(moving.worst_holes_view, 0);
  EXPECT_GT(moving.views[static_cast<std::size_t>(moving.worst_holes_view)].pose, 0);
  EXPECT_GT(moving.worst_pose, 0);
  EXPECT_GT(moving.worst_score, 1.0f);
  EXPECT_EQ(moving.views.size(), (1 + poses.size()) * static_cast<std::size_t>(options.directions));
  // The original against itself stays clean in every pose.
  EXPECT_TRUE(check_holes_in_motion(src.mesh, src.mesh, src.materials, options, poses).passed);
}

// A candidate with one arm cut off has no holes (the arm lies outside its outline) and no loss: only
// the silhouette measure sees it, and it must fail the check.
TEST(HoleCheck, ACandidateMissingAnArmFailsOnItsSilhouette) {
  const BakeMesh humanoid = test::make_capsule_humanoid();
  const std::vector<BakeMaterial> materials(8, kSingleSided[0]);
  // The arm at +x: every triangle whose centre lies beyond the torso (radius 0.18) on that side.
  BakeMesh armless = humanoid;
  armless.indices.clear();
  armless.triangle_material.clear();
  for (std::size_t t = 0; t < humanoid.triangle_count(); ++t) {
    const glm::vec3 c =
        (humanoid.positions[humanoid.indices[3 * t]] + humanoid.positions[humanoid.indices[3 * t + 1]] +
         humanoid.positions[humanoid.indices[3 * t + 2]]) /
        3.0f;
    if (c.x > 0.2f) continue;
    armless.indices.insert(armless.indices.end(),
                           humanoid.indices.begin() + static_cast<std::ptrdiff_t>(3 * t),
                           humanoid.indices.begin() + static_cast<std::ptrdiff_t>(3 * t + 3));
    armless.triangle_material.push_back(humanoid.triangle_material[t]);
  }
  ASSERT_LT(armless.triangle_count(), humanoid.triangle_count());
  const HoleCheckResult result = check_holes(humanoid, armless, materials, {});
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.worst_silhouette, HoleCheckOptions{}.silhouette_limit);
  EXPECT_LE(result.worst_loss, HoleCheckOptions{}.loss_limit);
  // The whole humanoid against itself loses nothing.
  EXPECT_EQ(check_holes(humanoid, humanoid, materials, {}).worst_silhouette, 0.0f);
}

// Every clip is sampled, each at frames_per_clip times inside it; a clip whose channels name a joint
// the skeleton lacks is skipped and named.
TEST(HoleCheck, MotionPosesCoverEveryClipAndNameTheOnesSkipped) {
  anim::ImportedModel model = make_enemy();
  ASSERT_FALSE(model.clips.empty());
  anim::Clip broken = model.clips.front();
  broken.name = "broken";
  ASSERT_FALSE(broken.channels.empty());
  broken.channels.front().joint = static_cast<std::uint16_t>(model.skeleton.size() + 5);
  model.clips.push_back(broken);
  const MotionPoses motion = motion_poses(model, 3);
  ASSERT_EQ(motion.skipped_clips.size(), 1u);
  EXPECT_NE(motion.skipped_clips.front().find("broken"), std::string::npos);
  EXPECT_EQ(motion.poses.size(), 3 * (model.clips.size() - 1));
  for (std::size_t c = 0; c + 1 < model.clips.size(); ++c) {
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(motion.poses[3 * c + static_cast<std::size_t>(k)].label.rfind(model.clips[c].name, 0), 0u);
  }
}

TEST(HoleCheck, DirectionsAreUnitAndSpreadOverBothHemispheres) {
  const std::vector<glm::vec3> directions = silhouette_directions(11);
  ASSERT_EQ(directions.size(), 11u);
  int up = 0;
  for (const glm::vec3& d : directions) {
    EXPECT_NEAR(glm::length(d), 1.0f, 1e-5f);
    up += d.y > 0.0f ? 1 : 0;
  }
  EXPECT_GE(up, 5);
  EXPECT_LE(up, 6);
}

TEST(HoleCheck, WritesAContactSheet) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("myriad_hole_sheet_" + std::to_string(::getpid()) + ".png");
  const BakeMesh box = test::make_grid_box(8);
  HoleCheckOptions options;
  options.directions = 3;
  options.resolution = 40;
  write_contact_sheet(path, box, punched_box(8, 0.25f), kSingleSided, options);
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  std::filesystem::remove(path);
}

TEST(HoleCheck, RejectsBadOptionsAndMeshes) {
  const BakeMesh box = test::make_grid_box(2);
  HoleCheckOptions bad;
  bad.resolution = 2;
  EXPECT_THROW(check_holes(box, box, kSingleSided, bad), Error);
  bad = {};
  bad.directions = 0;
  EXPECT_THROW(check_holes(box, box, kSingleSided, bad), Error);
  EXPECT_THROW(check_holes(box, BakeMesh{}, kSingleSided, {}), Error);
}

}  // namespace
}  // namespace myriad::crowd
