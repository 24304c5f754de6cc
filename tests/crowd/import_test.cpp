// Import for baking: real models merge into one mesh with per-triangle materials; models the baker
// cannot use fail with errors that say why.
#include "myriad/crowd_bake/import/import.hpp"

#include "crowd_test_assets.hpp"
#include "../anim/kit_test_models.hpp"

#include "myriad/anim/import/whole_model.hpp"
#include "myriad/crowd_bake/pipeline.hpp"

#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace myriad::crowd {
namespace {

std::string error_of(const anim::ImportedModel& model) {
  try {
    import_for_bake(model, "model.glb");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Import, MergesEverySkinnedPrimitive) {
  const anim::ImportedModel model = load_shared_model("cesium_man.gltf");
  const BakeSource s = import_for_bake(model, "cesium_man.gltf");
  std::size_t vertices = 0, indices = 0;
  for (const anim::SkinnedMesh& m : model.meshes) vertices += m.positions.size(), indices += m.indices.size();
  EXPECT_EQ(s.mesh.vertex_count(), vertices);
  EXPECT_EQ(s.mesh.indices.size(), indices);
  EXPECT_EQ(s.mesh.triangle_count(), 4672u);
  ASSERT_FALSE(s.materials.empty());
  EXPECT_GE(s.materials[0].texture, 0);
  EXPECT_EQ(s.textures.size(), model.textures.size());
  for (const glm::vec3& n : s.mesh.normals) EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
}

TEST(Import, FoxHasItsMaterialAndCullingFlag) {
  const anim::ImportedModel model = load_shared_model("Fox.glb");
  const BakeSource s = import_for_bake(model, "Fox.glb");
  EXPECT_EQ(s.mesh.triangle_count(), 576u);
  ASSERT_EQ(s.materials.size(), model.materials.size());
  EXPECT_EQ(s.materials[0].double_sided, model.materials[0].double_sided);
}

TEST(Import, RejectsModelsTheBakerCannotUse) {
  anim::ImportedModel model = load_shared_model("Fox.glb");
  anim::ImportedModel no_clips = model;
  no_clips.clips.clear();
  EXPECT_NE(error_of(no_clips).find("no animation clip"), std::string::npos) << error_of(no_clips);
  anim::ImportedModel no_skin = model;
  no_skin.skeleton = {};
  EXPECT_NE(error_of(no_skin).find("no skin"), std::string::npos) << error_of(no_skin);
  anim::ImportedModel empty = model;
  for (anim::SkinnedMesh& m : empty.meshes) m.indices.clear();
  EXPECT_NE(error_of(empty).find("no triangles"), std::string::npos) << error_of(empty);
  anim::ImportedModel nan = model;
  nan.meshes[0].positions[3].y = std::nanf("");
  EXPECT_NE(error_of(nan).find("non-finite position"), std::string::npos) << error_of(nan);
  anim::ImportedModel flat = model;  // every triangle collapsed onto one point
  for (anim::SkinnedMesh& m : flat.meshes)
    m.positions.assign(m.positions.size(), glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_NE(error_of(flat).find("zero area"), std::string::npos) << error_of(flat);
}

TEST(Import, CountsNonManifoldEdgesAndDegenerateTriangles) {
  anim::ImportedModel model = load_shared_model("Fox.glb");
  const BakeSource clean = import_for_bake(model, "Fox.glb");
  // A fin: a copy of triangle 0 turned around its first edge makes that edge shared by three triangles.
  anim::SkinnedMesh& m = model.meshes[0];
  const std::uint32_t a = m.indices[0], b = m.indices[1], c = m.indices[2];
  m.positions.push_back(m.positions[c] + glm::vec3(0.0f, 0.0f, 1.0f));
  if (!m.normals.empty()) m.normals.push_back(m.normals[c]);  // Fox stores none
  if (!m.uvs.empty()) m.uvs.push_back(m.uvs[c]);
  m.joints.push_back(m.joints[c]);
  m.weights.push_back(m.weights[c]);
  const auto fin = static_cast<std::uint32_t>(m.positions.size() - 1);
  m.indices.insert(m.indices.end(), {b, a, fin, a, a, b});  // the fin and one degenerate triangle
  const BakeSource s = import_for_bake(model, "Fox.glb");
  EXPECT_EQ(s.non_manifold_edges, clean.non_manifold_edges + 1);
  EXPECT_EQ(s.degenerate_triangles, clean.degenerate_triangles + 1);
}

// A robot as exporters write one: three skins on one armature (two identical, one overlapping in
// another order), a rigid visor under the head joint, two textured materials and a colour-only one,
// and a clip. The whole-model import takes every mesh; the single-skin import sees only skin 0's.
std::filesystem::path write_robot() {
  anim::test::ModelBuilder b;
  const int arm = b.node("Armature", -1);
  const int hips = b.node("hips", arm, {0.0f, 1.0f, 0.0f});
  const int spine = b.node("spine", hips, {0.0f, 0.3f, 0.0f});
  const int head = b.node("head", spine, {0.0f, 0.4f, 0.0f});
  const int leg_l = b.node("leg_l", hips, {0.15f, -0.1f, 0.0f});
  const int leg_r = b.node("leg_r", hips, {-0.15f, -0.1f, 0.0f});
  const int s0 = b.skin({hips, spine, head}, arm), s1 = b.skin({hips, spine, head}, arm);
  const int s2 = b.skin({leg_r, hips, leg_l}, arm);
  const int paint = b.color_material("paint", {0.8f, 0.2f, 0.2f, 1.0f});
  const int decal = b.texture_material("decal"), cloth = b.texture_material("cloth");
  b.mesh_node("torso", b.box("torso", {-0.2f, 1.0f, -0.1f}, {0.2f, 1.7f, 0.1f}, cloth, true, 1, 0, 0.3f), s0,
              -1);
  b.mesh_node("head", b.box("head", {-0.1f, 1.7f, -0.1f}, {0.1f, 1.9f, 0.1f}, paint, true, 2), s1, -1);
  b.mesh_node("legs", b.box("legs", {-0.2f, 0.0f, -0.1f}, {0.2f, 0.9f, 0.1f}, cloth, true, 0, 2, 0.5f), s2,
              -1);
  b.mesh_node("visor", b.box("visor", {-0.08f, 0.05f, 0.1f}, {0.08f, 0.1f, 0.12f}, decal, false), -1, head);
  b.rotation_clip("nod", head, {1.0f, 0.0f, 0.0f}, 0.3f, 1.0f);
  b.rotation_clip("step", leg_l, {1.0f, 0.0f, 0.0f}, 0.5f, 1.0f);
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("myriad_robot_" + std::to_string(::getpid()) + ".glb");
  b.write(p);
  return p;
}

TEST(Import, WholeModelTakesEverySkinRigidMeshAndMaterial) {
  const std::filesystem::path robot = write_robot();
  const anim::WholeModel whole = anim::import_whole_model(robot);
  ASSERT_EQ(whole.parts.size(), 4u);
  EXPECT_NE(whole.parts[3].find("rigid on joint 'head'"), std::string::npos) << whole.parts[3];
  const BakeSource s = import_for_bake(whole.model, "robot.glb");
  EXPECT_EQ(s.mesh.triangle_count(), 4u * 12u);
  EXPECT_EQ(s.materials.size(), 3u);
  EXPECT_EQ(s.textures.size(), 2u);
  // One palette entry per joint: identical skins share them, the visor reuses the head's.
  EXPECT_EQ(whole.model.joints.size(), 5u);
  // The single-skin import sees only the meshes bound to skins[0].
  EXPECT_LT(import_for_bake(anim::import_gltf(robot), "robot.glb").mesh.triangle_count(),
            s.mesh.triangle_count());
  // The baker takes it whole: LOD0 keeps every triangle of every part.
  BakeOptions options;
  const BakeOutput out = bake_crowd(whole.model, "robot.glb", options);
  EXPECT_EQ(out.report.lods[0].triangles, 48u) << format_report(out.report, options.holes);
  // The .crowd file lists the parts: torso and legs weighted to two joints each, the head skinned to its
  // joint alone and the visor rigidly parented to it both follow 'head'.
  ASSERT_EQ(out.file.parts.size(), 4u);
  EXPECT_EQ(out.file.parts[0].name, "torso");
  EXPECT_TRUE(out.file.parts[0].joint.empty());
  EXPECT_EQ(out.file.parts[0].joints, 2u);
  EXPECT_EQ(out.file.parts[1].joint, "head");
  EXPECT_EQ(out.file.parts[1].material, "paint");
  EXPECT_EQ(out.file.parts[2].joints, 2u);
  EXPECT_EQ(out.file.parts[3].name, "visor");
  EXPECT_EQ(out.file.parts[3].joint, "head");
  EXPECT_EQ(out.file.parts[3].material, "decal");
  for (const CrowdPart& part : out.file.parts) EXPECT_EQ(part.triangles, 12u) << part.name;
  std::filesystem::remove(robot);
}

// Props without a skin or a clip (a crate, and a barrel under a moved group node) are a crowd too:
// their nodes are the skeleton, each mesh rigid on its own node, baked in their rest pose as one still
// clip, and the report says so.
TEST(Import, ModelWithoutASkinOrAClipBakesItsRestPose) {
  anim::test::ModelBuilder b;
  b.mesh_node("crate", b.box("crate", glm::vec3(0.0f), glm::vec3(1.0f), -1, false), -1, -1);
  const int group = b.node("yard", -1, {4.0f, 0.0f, 0.0f});
  b.mesh_node("barrel", b.box("barrel", glm::vec3(0.0f), glm::vec3(1.0f, 2.0f, 1.0f), -1, false), -1, group);
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("myriad_props_" + std::to_string(::getpid()) + ".glb");
  b.write(p);
  const anim::WholeModel whole = anim::import_whole_model(p);
  std::filesystem::remove(p);
  ASSERT_EQ(whole.parts.size(), 2u);
  EXPECT_NE(whole.parts[0].find("crate: rigid on joint 'crate'"), std::string::npos) << whole.parts[0];
  EXPECT_NE(whole.parts[1].find("barrel: rigid on joint 'barrel'"), std::string::npos) << whole.parts[1];
  EXPECT_TRUE(whole.model.clips.empty());
  BakeOptions options;
  const BakeOutput out = bake_crowd(whole.model, "props.glb", options);
  EXPECT_TRUE(out.report.rest_pose_only);
  EXPECT_EQ(out.report.lods[0].triangles, 24u);
  ASSERT_EQ(out.file.clips.size(), 1u);
  EXPECT_EQ(out.file.clips[0].name, kRestClipName);
  EXPECT_EQ(out.file.clips[0].frames, 1u);
  EXPECT_NE(format_report(out.report, options.holes).find("baked its rest pose"), std::string::npos);
  // The barrel stands where its group puts it: x from 4 to 5, 2 high.
  EXPECT_NEAR(out.file.animated_max.x, 5.0f, 1e-4f);
  EXPECT_NEAR(out.file.animated_max.y, 2.0f, 1e-4f);
  EXPECT_NEAR(out.file.animated_min.x, 0.0f, 1e-4f);
}

// A skinned character exported without its clips bakes its rest pose; one with clips does not.
TEST(Import, SkinnedModelWithoutClipsBakesItsRestPose) {
  anim::ImportedModel still = load_shared_model("Fox.glb");
  still.clips.clear();
  BakeOptions options;
  const BakeOutput out = bake_crowd(still, "Fox.glb", options);
  EXPECT_TRUE(out.report.rest_pose_only);
  ASSERT_EQ(out.file.clips.size(), 1u);
  EXPECT_EQ(out.file.clips[0].name, kRestClipName);
  const BakeOutput moving = bake_crowd(load_shared_model("Fox.glb"), "Fox.glb", options);
  EXPECT_FALSE(moving.report.rest_pose_only);
  EXPECT_GT(moving.file.clips.size(), 1u);
}

}  // namespace
}  // namespace myriad::crowd
