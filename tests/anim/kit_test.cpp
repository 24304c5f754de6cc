// Avatar kits from glTF: two multi-mesh characters written here with tinygltf (several skins on one
// armature with identical, overlapping and reordered joint lists; rigid meshes under joints, directly
// and through an offset node; items by name prefix, by extras and from a separate file; a colour-only
// and a textured material; a Z-up armature with prefixed joint names) import as kits with the parts,
// items, joints and dedup figures worked out by hand; rigid parts land where glTF places them; bad
// kits fail naming what is wrong; kits written by write_kit_gltf read back unchanged, CesiumMan too.
#include "kit_test_models.hpp"
#include "sampled_pose.hpp"

#include "myriad/anim/clip/clip_roles.hpp"
#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/anim/import/kit_import.hpp"
#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/kit/kit_write.hpp"
#include "myriad/anim/kit/outfit.hpp"
#include "myriad/anim/kit/part_lods.hpp"
#include "myriad/anim/clip/stride.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <unistd.h>
#include "error_where.hpp"

namespace myriad::anim {
namespace {

using test::item_extras;
using test::ModelBuilder;

std::filesystem::path temp_dir(const std::string& name) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("myriad_kit_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

std::vector<std::string> names_of(const Avatar& kit, std::span<const std::uint16_t> joints) {
  std::vector<std::string> out;
  for (const std::uint16_t j : joints) out.push_back(kit.skeleton.names[j]);
  return out;
}

// The rest-pose palette of a single part's skin (its own entries, in order).
std::vector<Mat3x4> rest_palette(const Avatar& kit, const PartSkin& skin) {
  std::vector<glm::mat4> model(kit.skeleton.size());
  local_to_model(kit.skeleton.parents, kit.skeleton.rest, model);
  std::vector<Mat3x4> palette(skin.joints.size());
  build_palette(model, skin.joints, skin.inverse_binds, palette);
  return palette;
}

// Robot: Y-up, five joints; skins 0 and 1 identical, skin 2 overlapping in another order; a rigid
// visor under the head joint; a helmet item by name prefix; colour-only and textured materials.
struct Robot {
  ModelBuilder b;
  int arm, hips, spine, head, leg_l, leg_r, visor_node;
  Robot() {
    arm = b.node("Armature", -1, {0.5f, 0.0f, -1.0f});
    hips = b.node("hips", arm, {0.0f, 1.0f, 0.0f});
    spine = b.node("spine", hips, {0.0f, 0.3f, 0.0f}, glm::angleAxis(0.2f, glm::vec3(0.0f, 1.0f, 0.0f)));
    head = b.node("head", spine, {0.0f, 0.4f, 0.0f});
    leg_l = b.node("leg_l", hips, {0.15f, -0.1f, 0.0f});
    leg_r = b.node("leg_r", hips, {-0.15f, -0.1f, 0.0f});
    const int s0 = b.skin({hips, spine, head}, arm);
    const int s1 = b.skin({hips, spine, head}, arm);
    const int s2 = b.skin({leg_r, hips, leg_l}, arm);
    const int paint = b.color_material("paint", {0.8f, 0.2f, 0.2f, 1.0f});
    const int decal = b.texture_material("decal");
    b.mesh_node("torso", b.box("torso", {-0.2f, 1.0f, -0.1f}, {0.2f, 1.7f, 0.1f}, paint, true, 1, 0, 0.3f),
                s0, -1);
    b.mesh_node("head_mesh", b.box("head", {-0.1f, 1.7f, -0.1f}, {0.1f, 1.9f, 0.1f}, paint, true, 2), s1, -1);
    b.mesh_node("legs", b.box("legs", {-0.2f, 0.0f, -0.1f}, {0.2f, 0.9f, 0.1f}, paint, true, 0, 2, 0.5f), s2,
                -1);
    visor_node = b.mesh_node(
        "visor", b.box("visor", {-0.08f, 0.05f, 0.1f}, {0.08f, 0.1f, 0.12f}, decal, false), -1, head);
    b.m.nodes[static_cast<std::size_t>(visor_node)].translation = {0.0, 0.02, 0.01};
    b.mesh_node("item_helmet",
                b.box("helmet", {-0.12f, 1.75f, -0.12f}, {0.12f, 1.95f, 0.12f}, paint, true, 2), s1, -1);
    b.rotation_clip("nod", head, {1.0f, 0.0f, 0.0f}, 0.3f, 1.0f);
  }
};

TEST(KitImport, SeveralSkinsOnOneArmatureWithARigidPartAndAnItem) {
  Robot r;
  const std::filesystem::path dir = temp_dir("robot");
  r.b.write(dir / "robot.glb");
  const KitImport in = import_kit(dir / "robot.glb");
  const Avatar& kit = in.kit;
  EXPECT_TRUE(in.ignored.empty());
  ASSERT_EQ(kit.skeleton.size(), 5u);
  EXPECT_EQ(kit.skeleton.names, (std::vector<std::string>{"hips", "spine", "head", "leg_l", "leg_r"}));
  ASSERT_EQ(kit.parts.size(), 5u);
  // Body parts first (file order: skinned, then rigid), then items.
  EXPECT_EQ(kit.parts[0].mesh.name, "torso");
  EXPECT_EQ(kit.parts[1].mesh.name, "head_mesh");
  EXPECT_EQ(kit.parts[2].mesh.name, "legs");
  EXPECT_EQ(kit.parts[3].mesh.name, "visor");
  EXPECT_EQ(kit.parts[4].mesh.name, "item_helmet");
  EXPECT_TRUE(kit.parts[3].rigid);
  EXPECT_FALSE(kit.parts[3].clothing);
  EXPECT_TRUE(kit.parts[4].clothing);
  EXPECT_EQ(kit.parts[4].item, "helmet");
  EXPECT_EQ(kit.parts[4].slot, "helmet");
  EXPECT_EQ(names_of(kit, kit.parts[2].skin.joints), (std::vector<std::string>{"leg_r", "hips", "leg_l"}));
  EXPECT_EQ(names_of(kit, joints_used(kit.parts[2])), (std::vector<std::string>{"leg_l", "leg_r"}));
  EXPECT_EQ(names_of(kit, joints_used(kit.parts[3])), (std::vector<std::string>{"head"}));
  // Materials: colour-only and textured (the embedded PNG decoded).
  ASSERT_EQ(kit.materials.size(), 2u);
  EXPECT_NEAR(kit.materials[static_cast<std::size_t>(kit.parts[0].mesh.material)].base_color_factor.r, 0.8f,
              1e-6f);
  const Material& decal = kit.materials[static_cast<std::size_t>(kit.parts[3].mesh.material)];
  ASSERT_EQ(decal.base_color_texture, 0);
  ASSERT_EQ(kit.textures.size(), 1u);
  EXPECT_EQ(kit.textures[0].width, 2u);
  EXPECT_EQ(kit.textures[0].rgba8[0], 255);
  EXPECT_EQ(kit.textures[0].rgba8[5], 255);
  ASSERT_EQ(kit.clips.size(), 1u);
  EXPECT_EQ(kit.clips[0].name, "nod");
  // Dedup by hand: parts ask for 3 + 3 + 3 + 1 matrices (helmet + 3); the unique (joint, inverse bind)
  // pairs are the five joints (identical skins share bits; the visor reuses the head's entry).
  const KitDedup d = measure_dedup(kit);
  EXPECT_EQ(d.bare_before, 10u);
  EXPECT_EQ(d.bare_after, 5u);
  EXPECT_EQ(d.clothed_before, 13u);
  EXPECT_EQ(d.clothed_after, 5u);
  // The armature's placement is the root transform.
  EXPECT_EQ(kit.root_transform, r.b.global(r.arm));
}

TEST(KitImport, RigidPartsSitWhereTheFilePlacesThem) {
  Robot r;
  const std::filesystem::path dir = temp_dir("robot_rigid");
  r.b.write(dir / "robot.gltf");
  const Avatar kit = import_kit(dir / "robot.gltf").kit;
  // Rest pose palette of the visor's single joint; glTF places the visor at global(node) * p, in the
  // armature's frame: inverse(global(armature)) * global(node) * p.
  const std::vector<Mat3x4> palette = rest_palette(kit, kit.parts[3].skin);
  const glm::mat4 place = glm::inverse(r.b.global(r.arm)) * r.b.global(r.visor_node);
  const AvatarPart& visor = kit.parts[3];
  const glm::vec3 corners[2] = {{-0.08f, 0.05f, 0.1f}, {0.08f, 0.1f, 0.12f}};
  for (const glm::vec3& c : corners) {
    const glm::vec3 expected(place * glm::vec4(c, 1.0f));
    bool found = false;
    for (std::size_t v = 0; v < visor.mesh.positions.size(); ++v) {
      const glm::vec3 got =
          skin_position(palette, visor.mesh.joints[v], visor.mesh.weights[v], visor.mesh.positions[v]);
      found = found || glm::length(got - expected) < 1e-5f;
    }
    EXPECT_TRUE(found) << "no visor vertex at " << expected.x << " " << expected.y << " " << expected.z;
  }
}

// Biped: Z-up armature, "mixamorig:" names, two skins in different orders, a sword under the left
// hand through an offset node, a scarf item by extras; items in a separate file bound by joint name.
struct Biped {
  ModelBuilder b;
  std::vector<int> joints;
  int arm = -1, sword = -1;
  void skeleton() {
    arm = b.node("Armature", -1, {}, glm::angleAxis(-1.5707964f, glm::vec3(1.0f, 0.0f, 0.0f)));
    const int hips = b.node("mixamorig:Hips", arm, {0.0f, 0.0f, 1.0f});
    const int spine = b.node("mixamorig:Spine", hips, {0.0f, 0.0f, 0.4f});
    const int head = b.node("mixamorig:Head", spine, {0.0f, 0.0f, 0.3f});
    const int larm = b.node("mixamorig:LeftArm", spine, {0.2f, 0.0f, 0.3f});
    const int lhand = b.node("mixamorig:LeftHand", larm, {0.3f, 0.0f, 0.0f});
    const int rarm = b.node("mixamorig:RightArm", spine, {-0.2f, 0.0f, 0.3f});
    const int rhand = b.node("mixamorig:RightHand", rarm, {-0.3f, 0.0f, 0.0f});
    joints = {hips, spine, head, larm, lhand, rarm, rhand};
  }
  void body() {
    const int sa = b.skin({joints[0], joints[1], joints[2], joints[3], joints[4]}, arm);
    const int sb = b.skin({joints[6], joints[5], joints[1], joints[0]}, arm);
    const int cloth = b.color_material("cloth", {0.2f, 0.3f, 0.9f, 1.0f});
    b.mesh_node("body", b.box("body", {-0.2f, -0.1f, 0.0f}, {0.2f, 0.1f, 1.8f}, cloth, true, 1, 4, 0.25f), sa,
                -1);
    b.mesh_node("right_arm",
                b.box("rarm", {-0.6f, -0.05f, 1.6f}, {-0.2f, 0.05f, 1.7f}, cloth, true, 1, 0, 0.5f), sb, -1);
    const int socket =
        b.node("sword_socket", joints[4], {0.05f, 0.0f, 0.0f}, glm::angleAxis(0.5f, glm::vec3(0, 1, 0)));
    sword = b.mesh_node("sword", b.box("sword", {0.0f, -0.01f, -0.02f}, {0.8f, 0.01f, 0.02f}, cloth, false),
                        -1, socket);
    b.mesh_node("scarf_mesh", b.box("scarf", {-0.15f, -0.12f, 1.5f}, {0.15f, 0.12f, 1.6f}, cloth, true, 2),
                sa, -1, item_extras("scarf", "neck"));
  }
  // The item file repeats the armature (names matter, not node numbers); `extra_bone` adds a bone the
  // cape uses.
  void items(const std::string& extra_bone = {}) {
    const int second = extra_bone.empty() ? joints[3] : b.node(extra_bone, joints[1], {0.0f, 0.1f, 0.0f});
    const int s = b.skin({joints[1], second}, arm);
    b.mesh_node("cape", b.box("cape", {-0.2f, 0.1f, 0.5f}, {0.2f, 0.12f, 1.5f}, -1, true, 0, 1, 0.5f), s, -1,
                item_extras("cape", "back"));
    b.mesh_node("hat", b.box("hat", {-0.1f, -0.1f, 0.2f}, {0.1f, 0.1f, 0.35f}, -1, false), -1, joints[2],
                item_extras("hat", "head"));
  }
};

// Writes dir/biped.glb (skeleton and body) and dir/<items_file> (the skeleton again and the items,
// with `extra_bone` for the cape when given); returns the kit file's builder.
Biped write_biped(const std::filesystem::path& dir, const std::string& items_file,
                  const std::string& extra_bone = {}) {
  Biped kit_file;
  kit_file.skeleton();
  kit_file.body();
  kit_file.b.write(dir / "biped.glb");
  Biped item_file;
  item_file.skeleton();
  item_file.items(extra_bone);
  item_file.b.write(dir / items_file);
  return kit_file;
}

TEST(KitImport, ZUpPrefixedSkeletonWithAnOffsetRigidPartAndAnItemFile) {
  const std::filesystem::path dir = temp_dir("biped");
  const Biped kit_file = write_biped(dir, "biped_items.glb");
  const std::vector<std::filesystem::path> items{dir / "biped_items.glb"};
  const KitImport in = import_kit(dir / "biped.glb", items);
  const Avatar& kit = in.kit;
  ASSERT_EQ(kit.skeleton.size(), 7u);
  EXPECT_EQ(kit.skeleton.names[0], "mixamorig:Hips");
  ASSERT_EQ(kit.parts.size(), 6u);
  const std::vector<std::string> order = {"body", "right_arm", "sword", "scarf_mesh", "cape", "hat"};
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(kit.parts[i].mesh.name, order[i]);
  EXPECT_TRUE(kit.parts[2].rigid);
  EXPECT_EQ(names_of(kit, kit.parts[2].skin.joints), (std::vector<std::string>{"mixamorig:LeftHand"}));
  EXPECT_EQ(kit.parts[3].item, "scarf");
  EXPECT_EQ(kit.parts[3].slot, "neck");
  EXPECT_EQ(kit.parts[4].slot, "back");
  EXPECT_TRUE(kit.parts[5].rigid);
  EXPECT_EQ(kit.parts[5].slot, "head");
  EXPECT_EQ(kit.root_transform, kit_file.b.global(kit_file.arm));
  // By hand: body 5 + right arm 4 + sword 1 = 10 entries over 7 joints; items add scarf 5, cape 2
  // (spine and left arm, the same bits: the item file's inverse binds match), hat 1; still 7 unique.
  const KitDedup d = measure_dedup(kit);
  EXPECT_EQ(d.bare_before, 10u);
  EXPECT_EQ(d.bare_after, 7u);
  EXPECT_EQ(d.clothed_before, 18u);
  EXPECT_EQ(d.clothed_after, 7u);
  // The sword: offset node (translation + rotation) under the hand is kept.
  const std::vector<Mat3x4> palette = rest_palette(kit, kit.parts[2].skin);
  const glm::mat4 place = glm::inverse(kit_file.b.global(kit_file.arm)) * kit_file.b.global(kit_file.sword);
  const glm::vec3 tip(place * glm::vec4(0.8f, 0.01f, 0.02f, 1.0f));
  float best = 1e9f;
  const AvatarPart& sword = kit.parts[2];
  for (std::size_t v = 0; v < sword.mesh.positions.size(); ++v)
    best = std::min(best, glm::length(skin_position(palette, sword.mesh.joints[v], sword.mesh.weights[v],
                                                    sword.mesh.positions[v]) -
                                      tip));
  EXPECT_LT(best, 1e-5f);
  // Outfits: slots neck, back, head; everything worn = all parts.
  const KitSlots slots = kit_slots(kit);
  ASSERT_EQ(slots.slots.size(), 3u);
  EXPECT_EQ(draw_outfit(slots, 7, {.everything = true}).parts.size(), 6u);
}

TEST(KitImport, ItemWithAJointOutsideTheKitNamesItemAndJoint) {
  const std::filesystem::path dir = temp_dir("bad_item");
  write_biped(dir, "tail_items.glb", "mixamorig:Tail");
  KitImport in = import_kit(dir / "biped.glb");
  try {
    add_kit_items(in.kit, dir / "tail_items.glb");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cape"), std::string::npos) << what;
    EXPECT_NE(what.find("mixamorig:Tail"), std::string::npos) << what;
    EXPECT_NE(what.find("tail_items.glb"), std::string::npos) << what;
  }
}

TEST(KitImport, TwoUnrelatedSkeletonsNameBothRoots) {
  ModelBuilder b;
  const int a1 = b.node("ArmatureA", -1);
  const int r1 = b.node("RootA", a1);
  const int a2 = b.node("ArmatureB", -1, {2.0f, 0.0f, 0.0f});
  const int r2 = b.node("RootB", a2);
  const int s1 = b.skin({r1}, a1), s2 = b.skin({r2}, a2);
  b.mesh_node("a", b.box("a", glm::vec3(0.0f), glm::vec3(1.0f), -1, true), s1, -1);
  b.mesh_node("b", b.box("b", glm::vec3(0.0f), glm::vec3(1.0f), -1, true), s2, -1);
  const std::filesystem::path dir = temp_dir("two");
  b.write(dir / "two.glb");
  try {
    import_kit(dir / "two.glb");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("RootA"), std::string::npos) << what;
    EXPECT_NE(what.find("RootB"), std::string::npos) << what;
  }
}

// Clips from another file: an animation-only export of the same character with other joint names
// (no exporter prefix, one bone renamed) is retargeted onto the kit; what it cannot drive is named in a
// warning; a file sharing no joint is refused.
TEST(KitImport, ClipsFromAnotherFileAreRetargetedByJointName) {
  const std::filesystem::path dir = temp_dir("clips");
  write_biped(dir, "items.glb");
  KitImport in = import_kit(dir / "biped.glb");
  const std::size_t before = in.kit.clips.size();
  // The same armature, names without "mixamorig:", the left arm called "LeftUpperArm"; a skin so the
  // file reads as a character; clips on the spine and on the renamed arm.
  ModelBuilder b;
  const int arm = b.node("Armature", -1, {}, glm::angleAxis(-1.5707964f, glm::vec3(1.0f, 0.0f, 0.0f)));
  const int hips = b.node("Hips", arm, {0.0f, 0.0f, 1.0f});
  const int spine = b.node("Spine", hips, {0.0f, 0.0f, 0.4f});
  const int larm = b.node("LeftUpperArm", spine, {0.2f, 0.0f, 0.3f});
  b.skin({hips, spine, larm}, arm);
  b.rotation_clip("sway", spine, {0.0f, 0.0f, 1.0f}, 0.4f, 2.0f);
  b.rotation_clip("wave", larm, {0.0f, 1.0f, 0.0f}, 0.8f, 1.0f);
  b.m.animations[1].channels.push_back(b.m.animations[0].channels[0]);  // wave also moves the spine
  b.m.animations[1].channels.back().sampler = 1;
  b.m.animations[1].samplers.push_back(b.m.animations[0].samplers[0]);
  b.write(dir / "clips.glb");
  const std::vector<std::string> warnings = add_kit_clips(in.kit, dir / "clips.glb");
  ASSERT_EQ(in.kit.clips.size(), before + 2);
  const Clip& sway = in.kit.clips[before];
  EXPECT_EQ(sway.name, "sway");
  ASSERT_EQ(sway.channels.size(), 1u);
  EXPECT_EQ(in.kit.skeleton.names[sway.channels[0].joint], "mixamorig:Spine");
  // "wave" loses its arm channel (no kit joint of that name) and says so; "sway" lost nothing.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("LeftUpperArm"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("wave"), std::string::npos) << warnings[0];
  // A file whose joints are all foreign is refused, naming them.
  ModelBuilder other;  // no skin: the animated node is the skeleton
  const int tail = other.node("Tail", -1);
  other.rotation_clip("wag", tail, {0.0f, 1.0f, 0.0f}, 0.5f, 1.0f);
  other.write(dir / "tail.glb");
  try {
    add_kit_clips(in.kit, dir / "tail.glb");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Tail"), std::string::npos) << e.what();
  }
}

TEST(KitImport, MeshOutsideTheArmatureIsListedNotDropped) {
  Robot r;
  r.b.mesh_node("prop", r.b.box("prop", glm::vec3(0.0f), glm::vec3(1.0f), -1, false), -1, -1);
  const std::filesystem::path dir = temp_dir("prop");
  r.b.write(dir / "robot.glb");
  const KitImport in = import_kit(dir / "robot.glb");
  ASSERT_EQ(in.ignored.size(), 1u);
  EXPECT_NE(in.ignored[0].find("prop"), std::string::npos);
}

// A model without a skin, as CAD and prop exporters write one: a cart group (moved and turned, no mesh)
// holding a body whose wheel spins, a second top-level prop, and a mesh-less marker node. Its nodes
// are the skeleton: every vertex lands where glTF places it, at rest and while the wheel turns.
TEST(KitImport, ModelWithoutASkinIsASkeletonOfItsNodes) {
  ModelBuilder b;
  const int cart = b.node("cart", -1, {5.0f, 0.0f, 1.0f}, glm::angleAxis(0.5f, glm::vec3(0.0f, 1.0f, 0.0f)));
  const int body =
      b.mesh_node("body", b.box("body", {-1.0f, 0.0f, -0.5f}, {1.0f, 0.5f, 0.5f}, -1, false), -1, cart);
  b.m.nodes[static_cast<std::size_t>(body)].translation = {0.0, 0.4, 0.0};
  const int wheel =
      b.mesh_node("wheel", b.box("wheel", {-0.3f, -0.3f, -0.1f}, {0.3f, 0.3f, 0.1f}, -1, false), -1, body);
  b.m.nodes[static_cast<std::size_t>(wheel)].translation = {0.8, 0.0, 0.6};
  const int crate = b.mesh_node("crate", b.box("crate", glm::vec3(0.0f), glm::vec3(1.0f), -1, false), -1, -1);
  b.m.nodes[static_cast<std::size_t>(crate)].translation = {-3.0, 0.0, 0.0};
  b.node("marker", cart, {0.0f, 2.0f, 0.0f});
  b.rotation_clip("roll", wheel, {0.0f, 0.0f, 1.0f}, 1.0f, 1.0f);
  const std::filesystem::path dir = temp_dir("cart");
  b.write(dir / "cart.glb");
  const KitImport in = import_kit(dir / "cart.glb");
  const Avatar& kit = in.kit;
  EXPECT_TRUE(in.ignored.empty());
  std::set<std::string> names(kit.skeleton.names.begin(), kit.skeleton.names.end());
  EXPECT_EQ(names, (std::set<std::string>{"cart", "body", "wheel", "crate"}));
  EXPECT_EQ(kit.root_transform, glm::mat4(1.0f));
  ASSERT_EQ(kit.parts.size(), 3u);
  ASSERT_EQ(kit.clips.size(), 1u);
  // At a quarter of the clip the wheel has turned by the amplitude (the second of five sine keys).
  const float t = 0.25f;
  const glm::mat4 wheel_at_t = b.global(body) * glm::translate(glm::mat4(1.0f), glm::vec3(0.8f, 0.0f, 0.6f)) *
                               glm::mat4_cast(glm::angleAxis(1.0f, glm::vec3(0.0f, 0.0f, 1.0f)));
  const LocalPose pose = test::sampled(kit.skeleton, kit.clips[0], t);
  std::vector<glm::mat4> model(kit.skeleton.size());
  local_to_model(kit.skeleton.parents, pose, model);
  for (const AvatarPart& part : kit.parts) {
    EXPECT_TRUE(part.rigid) << part.mesh.name;
    const int node = part.mesh.name == "body" ? body : part.mesh.name == "wheel" ? wheel : crate;
    const glm::mat4 place = node == wheel ? wheel_at_t : b.global(node);
    const glm::vec3 lo = node == body    ? glm::vec3(-1.0f, 0.0f, -0.5f)
                         : node == wheel ? glm::vec3(-0.3f, -0.3f, -0.1f)
                                         : glm::vec3(0.0f);
    std::vector<Mat3x4> palette(part.skin.joints.size());
    build_palette(model, part.skin.joints, part.skin.inverse_binds, palette);
    const glm::vec3 expected(place * glm::vec4(lo, 1.0f));
    float nearest = 1e9f;
    for (std::size_t v = 0; v < part.mesh.positions.size(); ++v) {
      const glm::vec3 got =
          skin_position(palette, part.mesh.joints[v], part.mesh.weights[v], part.mesh.positions[v]);
      nearest = std::min(nearest, glm::length(got - expected));
    }
    EXPECT_LT(nearest, 1e-4f) << part.mesh.name << ": no vertex at " << expected.x << " " << expected.y << " "
                              << expected.z;
  }
}

void expect_same_kit(const Avatar& a, const Avatar& b) {
  ASSERT_EQ(a.skeleton.names, b.skeleton.names);
  ASSERT_EQ(a.parts.size(), b.parts.size());
  for (std::size_t p = 0; p < a.parts.size(); ++p) {
    const AvatarPart &x = a.parts[p], &y = b.parts[p];
    EXPECT_EQ(x.mesh.name, y.mesh.name);
    EXPECT_EQ(x.clothing, y.clothing);
    EXPECT_EQ(x.item, y.item);
    EXPECT_EQ(x.slot, y.slot);
    EXPECT_EQ(x.rigid, y.rigid);
    EXPECT_EQ(x.skin.joints, y.skin.joints) << x.mesh.name;
    ASSERT_EQ(x.mesh.positions.size(), y.mesh.positions.size()) << x.mesh.name;
    EXPECT_EQ(x.mesh.indices, y.mesh.indices) << x.mesh.name;
    float err = 0.0f;
    for (std::size_t v = 0; v < x.mesh.positions.size(); ++v)
      err = std::max(err, glm::length(x.mesh.positions[v] - y.mesh.positions[v]));
    EXPECT_LT(err, 1e-5f) << x.mesh.name;
  }
  EXPECT_EQ(a.clips.size(), b.clips.size());
  const KitDedup da = measure_dedup(a), db = measure_dedup(b);
  EXPECT_EQ(da.bare_before, db.bare_before);
  EXPECT_EQ(da.bare_after, db.bare_after);
  EXPECT_EQ(da.clothed_before, db.clothed_before);
  EXPECT_EQ(da.clothed_after, db.clothed_after);
}

TEST(KitWrite, ProceduralKitReadsBackUnchanged) {
  const Avatar kit = make_sample_kit(nullptr);
  const KitImport in = write_and_import_kit(kit, temp_dir("procedural"), "humanoid");
  expect_same_kit(kit, in.kit);
  const KitSlots slots = kit_slots(in.kit);
  std::set<std::string> names;
  for (const auto& s : slots.slots) names.insert(s.name);
  EXPECT_EQ(names, (std::set<std::string>{"torso", "legs", "feet", "hands", "head"}));
}

// Materials survive the kit writer and reader: base colour, texture (written as PNG), alpha mask with
// its cutoff, double-sided, COLOR_0 and the tintable flag of a body part.
TEST(KitWrite, MaterialsColoursAndTintableFlagsReadBack) {
  Avatar kit = make_avatar({.clothed = false});
  Texture tex{"checker", 2, 2, {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128, 255, 255, 255, 0}};
  kit.textures.push_back(tex);
  Material masked{.name = "leaf",
                  .base_color_factor = {0.2f, 0.4f, 0.6f, 0.8f},
                  .base_color_texture = 0,
                  .double_sided = true};
  masked.alpha_mode = AlphaMode::kMask;
  masked.alpha_cutoff = 0.3f;
  kit.materials.push_back(masked);
  kit.materials.push_back(Material{.name = "orange", .base_color_factor = {0.59f, 0.29f, 0.04f, 1.0f}});
  kit.parts[0].mesh.material = 0;
  kit.parts[1].mesh.material = 1;
  kit.parts[1].mesh.colors.assign(kit.parts[1].mesh.positions.size(), glm::vec4(0.25f, 0.5f, 0.75f, 1.0f));
  kit.parts[1].tintable = false;
  const KitImport in = write_and_import_kit(kit, temp_dir("materials"), "materials");
  ASSERT_EQ(in.kit.parts.size(), kit.parts.size());
  const AvatarPart& a = in.kit.parts[0];
  const AvatarPart& b = in.kit.parts[1];
  ASSERT_GE(a.mesh.material, 0);
  ASSERT_GE(b.mesh.material, 0);
  const Material& ma = in.kit.materials[static_cast<std::size_t>(a.mesh.material)];
  const Material& mb = in.kit.materials[static_cast<std::size_t>(b.mesh.material)];
  EXPECT_EQ(ma.alpha_mode, AlphaMode::kMask);
  EXPECT_FLOAT_EQ(ma.alpha_cutoff, 0.3f);
  EXPECT_TRUE(ma.double_sided);
  EXPECT_EQ(ma.base_color_factor, masked.base_color_factor);
  ASSERT_GE(ma.base_color_texture, 0);
  EXPECT_EQ(in.kit.textures[static_cast<std::size_t>(ma.base_color_texture)].rgba8, tex.rgba8);
  EXPECT_EQ(mb.alpha_mode, AlphaMode::kOpaque);
  EXPECT_FALSE(mb.double_sided);
  EXPECT_LT(mb.base_color_texture, 0);
  ASSERT_EQ(b.mesh.colors.size(), b.mesh.positions.size());
  EXPECT_EQ(b.mesh.colors[0], glm::vec4(0.25f, 0.5f, 0.75f, 1.0f));
  EXPECT_TRUE(a.mesh.colors.empty());
  EXPECT_TRUE(a.tintable);
  EXPECT_FALSE(b.tintable);
}

// Part LODs: each level keeps about half the vertices of the one above, every border vertex (the
// seams where parts of one body meet) stays where it was, and attributes follow the kept vertices.
TEST(PartLods, HalveTheVerticesAndKeepTheBorders) {
  SkinnedMesh m;
  constexpr int kN = 24;  // kN x kN quads of a gently curved sheet
  for (int z = 0; z <= kN; ++z)
    for (int x = 0; x <= kN; ++x) {
      m.positions.emplace_back(float(x), 0.3f * std::sin(float(x) * 0.4f) * std::cos(float(z) * 0.3f),
                               float(z));
      m.normals.emplace_back(0.0f, 1.0f, 0.0f);
      m.uvs.emplace_back(float(x) / kN, float(z) / kN);
      m.joints.emplace_back(0, 1, 0, 0);
      m.weights.emplace_back(float(x) / kN, 1.0f - float(x) / kN, 0.0f, 0.0f);
    }
  for (int z = 0; z < kN; ++z)
    for (int x = 0; x < kN; ++x) {
      const auto v = [&](int dx, int dz) { return std::uint32_t((z + dz) * (kN + 1) + x + dx); };
      m.indices.insert(m.indices.end(), {v(0, 0), v(0, 1), v(1, 0), v(1, 0), v(0, 1), v(1, 1)});
    }
  const std::vector<SkinnedMesh> lods = make_part_lods(m, 3);
  ASSERT_EQ(lods.size(), 3u);
  EXPECT_EQ(lods[0].positions, m.positions);
  for (std::size_t l = 1; l < 3; ++l) {
    const SkinnedMesh& lo = lods[l];
    EXPECT_LE(lo.indices.size(), lods[l - 1].indices.size() * 6 / 10) << "level " << l;
    EXPECT_LE(lo.positions.size(), lods[l - 1].positions.size() * 7 / 10) << "level " << l;
    ASSERT_EQ(lo.uvs.size(), lo.positions.size());
    ASSERT_EQ(lo.weights.size(), lo.positions.size());
    for (std::size_t v = 0; v < lo.positions.size(); ++v) {
      // Attributes travel with their vertex: the UV and weight were made from the position.
      EXPECT_FLOAT_EQ(lo.uvs[v].x * kN, lo.positions[v].x);
      EXPECT_FLOAT_EQ(lo.weights[v].x * kN, lo.positions[v].x);
    }
    for (const glm::vec3& p : m.positions) {
      if (p.x != 0.0f && p.z != 0.0f && p.x != float(kN) && p.z != float(kN)) continue;
      EXPECT_NE(std::find(lo.positions.begin(), lo.positions.end(), p), lo.positions.end())
          << "border vertex " << p.x << ", " << p.z << " lost at level " << l;
    }
  }
  EXPECT_THROW(make_part_lods(m, 0), Error);
}

// A two-joint kit (a body and a foot below it, a sole on the foot) whose clip moves the foot from +0.5 to
// -0.5 in z over one second while it stays the lowest: the ground passes under the body at 1 unit/s, so the
// clip walks forward (+z) at 1 unit/s. With the body carried forward 2 units over the clip and the foot kept
// in place in the world, the clip walks by root motion; without its drift it walks in place at 2.
TEST(Stride, SpeedAndForwardFromThePlantedFootOrTheRoot) {
  Avatar kit;
  kit.skeleton.names = {"body", "foot"};
  kit.skeleton.parents = {kNoParent, 0};
  kit.skeleton.rest.resize(2);
  kit.skeleton.rest.translation = {glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f)};
  kit.skeleton.rest.rotation = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  kit.skeleton.rest.scale = {glm::vec3(1.0f), glm::vec3(1.0f)};
  // A sole: one triangle on the foot (bound where the foot rests, at the origin).
  AvatarPart sole;
  sole.mesh.positions = {{-0.05f, 0.0f, 0.0f}, {0.05f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.1f}};
  sole.mesh.joints.assign(3, glm::u16vec4(0));
  sole.mesh.weights.assign(3, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
  sole.mesh.indices = {0, 1, 2};
  sole.skin = {{1}, {glm::mat4(1.0f)}};
  kit.parts.push_back(sole);
  const auto clip_of = [](glm::vec3 root0, glm::vec3 root1, glm::vec3 foot0, glm::vec3 foot1) {
    Clip c{"walk", 1.0f, {}, {0.0f, 1.0f, 0.0f, 1.0f}, {}};
    c.values = {glm::vec4(root0, 0.0f), glm::vec4(root1, 0.0f), glm::vec4(foot0, 0.0f),
                glm::vec4(foot1, 0.0f)};
    c.channels = {{0, ChannelPath::kTranslation, Interpolation::kLinear, 0, 2, 0},
                  {1, ChannelPath::kTranslation, Interpolation::kLinear, 2, 2, 2}};
    return c;
  };
  const Clip treadmill = clip_of({0, 1, 0}, {0, 1, 0}, {0, -1, 0.5f}, {0, -1, -0.5f});
  ClipStride s = clip_stride(kit, treadmill);
  EXPECT_NEAR(s.speed, 1.0f, 1e-3f);
  EXPECT_NEAR(s.forward.z, 1.0f, 1e-4f);
  EXPECT_FALSE(s.root_motion);
  Clip carried = clip_of({0, 1, 0}, {0, 1, 2}, {0, -1, 0.5f}, {0, -1, -1.5f});
  s = clip_stride(kit, carried);
  EXPECT_TRUE(s.root_motion);
  EXPECT_NEAR(s.speed, 2.0f, 1e-3f);
  EXPECT_NEAR(s.forward.z, 1.0f, 1e-4f);
  remove_root_drift(carried, kit.skeleton, glm::vec3(0.0f, 1.0f, 0.0f));
  EXPECT_EQ(glm::vec3(carried.values[1]), glm::vec3(0.0f, 1.0f, 0.0f));  // the root stays; its height too
  s = clip_stride(kit, carried);
  EXPECT_FALSE(s.root_motion);
  EXPECT_NEAR(s.speed, 2.0f, 1e-3f);
  // A kit turned by its root transform (e.g. Z-up): forward turns with it.
  kit.root_transform = glm::rotate(glm::mat4(1.0f), glm::half_pi<float>(), glm::vec3(0.0f, 1.0f, 0.0f));
  s = clip_stride(kit, treadmill);
  EXPECT_NEAR(s.forward.x, 1.0f, 1e-4f);
}

// Clip roles by name in any case, the shortest of several matches, an override by name, and the
// errors that name the option and list the clips.
TEST(ClipRoles, FoundByNameOrOverride) {
  const auto clips = [](std::initializer_list<const char*> names) {
    std::vector<Clip> out;
    for (const char* n : names) out.push_back(Clip{n, 1.0f, {}, {}, {}});
    return out;
  };
  const std::vector<Clip> fox = clips({"Survey", "Walk", "Run"});
  ClipRoles r = find_clip_roles(fox);
  EXPECT_EQ(r.walk, 1);
  EXPECT_EQ(r.idle, -1);
  EXPECT_TRUE(r.walk_named);
  const std::vector<Clip> named = clips({"Armature|Walking_Fast", "IDLE_breathing", "armature|walking"});
  r = find_clip_roles(named);
  EXPECT_EQ(r.walk, 2);
  EXPECT_EQ(r.idle, 1);
  const std::vector<ClipRoleOverride> o = {parse_clip_role("Idle=Survey", "--avatar-clip"),
                                           parse_clip_role("walk=Run", "--avatar-clip")};
  r = find_clip_roles(fox, o);
  EXPECT_EQ(r.walk, 2);
  EXPECT_EQ(r.idle, 0);
  r = find_clip_roles(clips({"Epileptisch"}));
  EXPECT_EQ(r.walk, 0);
  EXPECT_FALSE(r.walk_named);
  try {
    const std::vector<ClipRoleOverride> bad = {parse_clip_role("walk=Jump", "--avatar-clip")};
    find_clip_roles(fox, bad);
    FAIL() << "a role naming no clip was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'Survey', 'Walk', 'Run'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_clip_role("dance=Walk", "--avatar-clip"), Error);
  EXPECT_THROW(parse_clip_role("walk", "--avatar-clip"), Error);
}

// A single-skin model whose meshes have different materials keeps them through the split: every part
// has one of the model's materials, and each material's parts hold exactly its meshes' triangles.
// A kit made from a file takes the whole model: the robot's three skins and its rigid visor, not only
// the meshes of the first skin.
TEST(KitBuild, AKitFromAFileTakesEverySkinAndRigidMesh) {
  Robot r;
  const std::filesystem::path dir = temp_dir("robot_make_kit");
  r.b.write(dir / "robot.glb");
  std::size_t file_triangles = 0;
  for (const tinygltf::Mesh& m : r.b.m.meshes) file_triangles += 12 * m.primitives.size();
  const auto triangles = [](const Avatar& kit) {
    std::size_t n = 0;
    for (const AvatarPart& p : kit.parts) n += p.mesh.indices.size() / 3;
    return n;
  };
  const Avatar kit = kit_from_file(dir / "robot.glb", 4);
  EXPECT_EQ(triangles(kit), file_triangles);
  EXPECT_LT(triangles(kit_from_model(import_gltf(dir / "robot.glb"), 4)), file_triangles);
}

TEST(KitBuild, SplittingKeepsEachMeshsMaterial) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  ImportedModel model = import_gltf(p);
  ASSERT_EQ(model.meshes.size(), 1u);
  // The mesh's first half of triangles stays textured; the second becomes a colour-only mesh.
  SkinnedMesh second = model.meshes[0];
  const std::size_t half = model.meshes[0].indices.size() / 6 * 3;
  second.indices.erase(second.indices.begin(), second.indices.begin() + std::ptrdiff_t(half));
  model.meshes[0].indices.resize(half);
  model.materials.push_back(Material{.name = "cloth", .base_color_factor = {0.2f, 0.3f, 0.9f, 1.0f}});
  second.material = static_cast<int>(model.materials.size() - 1);
  model.meshes.push_back(second);
  const Avatar kit = kit_from_model(model, kAvatarBodyParts);
  std::size_t triangles[2] = {0, 0};
  for (const AvatarPart& part : kit.parts) {
    ASSERT_GE(part.mesh.material, 0);
    ASSERT_LT(part.mesh.material, 2);
    triangles[part.mesh.material] += part.mesh.indices.size() / 3;
  }
  EXPECT_EQ(triangles[0], half / 3);
  EXPECT_EQ(triangles[1], second.indices.size() / 3);
}

TEST(KitBuild, CesiumManSplitIntoSeventeenPartsWithItemsReadsBack) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  const ImportedModel model = import_gltf(p);
  const Avatar kit = make_sample_kit(&model);
  std::size_t body = 0;
  for (const AvatarPart& part : kit.parts) body += part.clothing ? 0 : 1;
  EXPECT_EQ(body, kAvatarBodyParts);
  const KitImport in = write_and_import_kit(kit, temp_dir("cesium"), "cesium_kit");
  expect_same_kit(kit, in.kit);
  std::set<std::string> items;
  for (const AvatarPart& part : in.kit.parts) {
    if (part.clothing) {
      items.insert(part.item);
      EXPECT_FALSE(part.mesh.indices.empty()) << part.item;
    }
  }
  EXPECT_EQ(items, (std::set<std::string>{"shirt", "jacket", "trousers", "shoes", "hat", "cap"}));
  const KitDedup d = measure_dedup(in.kit);
  // Each of the 17 parts lists the bones its vertices use; dedup keeps one entry per joint used.
  EXPECT_GT(d.bare_before, d.bare_after);
  EXPECT_LE(d.bare_after, model.skeleton.size());
  EXPECT_EQ(d.clothed_after, d.bare_after);  // items are cut from the body: no new bones
  EXPECT_GT(d.clothed_before, d.bare_before);
}

// The procedural humanoid's options name the field they reject (make_avatar checks them first).
TEST(Avatar, OptionsNameTheInvalidField) {
  EXPECT_NO_THROW(AvatarOptions{}.validate());
  EXPECT_EQ(myriad::test::where_of([] { (void)make_avatar({.ring_segments = 2}); }),
            "AvatarOptions::ring_segments");
  EXPECT_EQ(myriad::test::where_of([] { AvatarOptions{.rings = 1}.validate(); }), "AvatarOptions::rings");
}

}  // namespace
}  // namespace myriad::anim
