// glTF files as other exporters and optimisers write them, read through gltf::Document: sparse
// accessors (with and without a base view) read as their dense values, plain-integer attributes of a
// file using KHR_mesh_quantization read as numbers (and are refused without it), and a file requiring an
// extension Myriad does not read fails naming that extension; triangle strips and fans read as
// triangle lists, points and lines are named as left out; the base colour texture's UV set and
// KHR_texture_transform are applied; zero normals are rebuilt from the faces; morph targets are blended
// in at the node's (else the mesh's) weights; a KHR_materials_pbrSpecularGlossiness material's diffuse
// colour is its base colour, and 16-bit PNG textures are read.
#include "kit_test_models.hpp"

#include "myriad/anim/import/kit_import.hpp"
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gltf/document.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace myriad::anim {
namespace {

using test::ModelBuilder;

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("myriad_gltf_doc_" + std::to_string(::getpid()) + "_" + name);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// A box whose POSITION accessor becomes sparse: `with_base` keeps the box as its base view and moves
// the first `moved` corners up by 10; without it the base is zeros and the sparse values are the box's
// first `moved` positions.
struct SparseBox {
  ModelBuilder b;
  std::vector<glm::vec3> box, expected;
  SparseBox(bool with_base, std::size_t moved) {
    const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), -1, false);
    b.mesh_node("box", mesh, -1, -1);
    const int pos = b.m.meshes[0].primitives[0].attributes.at("POSITION");
    tinygltf::Accessor& a = b.m.accessors[static_cast<std::size_t>(pos)];
    const tinygltf::BufferView& bv = b.m.bufferViews[static_cast<std::size_t>(a.bufferView)];
    box.resize(a.count);
    std::memcpy(box.data(), b.m.buffers[0].data.data() + bv.byteOffset, box.size() * sizeof(glm::vec3));
    expected = with_base ? box : std::vector<glm::vec3>(box.size(), glm::vec3(0.0f));
    std::vector<std::uint16_t> indices;
    std::vector<glm::vec3> values;
    for (std::size_t k = 0; k < moved; ++k) {
      // Every other vertex from the last down, so the indices are not simply 0..moved-1.
      const auto at = static_cast<std::uint16_t>(box.size() - 1 - 2 * k);
      indices.push_back(at);
      values.push_back(with_base ? box[at] + glm::vec3(0.0f, 10.0f, 0.0f) : box[at]);
      expected[at] = values.back();
    }
    const int ia = b.accessor(indices.data(), indices.size(), 2, TINYGLTF_TYPE_SCALAR,
                              TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
    const int va =
        b.accessor(values.data(), values.size(), 12, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT);
    tinygltf::Accessor& p = b.m.accessors[static_cast<std::size_t>(pos)];
    p.sparse.isSparse = true;
    p.sparse.count = static_cast<int>(moved);
    p.sparse.indices.bufferView = b.m.accessors[static_cast<std::size_t>(ia)].bufferView;
    p.sparse.indices.byteOffset = 0;
    p.sparse.indices.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
    p.sparse.values.bufferView = b.m.accessors[static_cast<std::size_t>(va)].bufferView;
    p.sparse.values.byteOffset = 0;
    if (!with_base) p.bufferView = -1;
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& v : expected) lo = glm::min(lo, v), hi = glm::max(hi, v);
    p.minValues = test::doubles(lo.x, lo.y, lo.z);
    p.maxValues = test::doubles(hi.x, hi.y, hi.z);
  }
};

TEST(GltfDocument, SparseAccessorsReadAsTheirDenseValues) {
  for (const bool with_base : {true, false}) {
    SparseBox s(with_base, 5);
    const std::filesystem::path path = temp_file(with_base ? "sparse_base.glb" : "sparse_zeros.glb");
    s.b.write(path);
    const gltf::Document doc = gltf::load(path);
    const int pos = doc.model.meshes[0].primitives[0].attributes.at("POSITION");
    std::vector<glm::vec3> read;
    gltf::assign_floats(read, gltf::read_floats(doc, pos, 3, "POSITION"));
    EXPECT_EQ(read, s.expected) << (with_base ? "with a base view" : "on zeros");
    // The kit import reads them too: the rigid part's vertices are the dense positions.
    const KitImport in = import_kit(path);
    ASSERT_EQ(in.kit.parts.size(), 1u);
    EXPECT_EQ(in.kit.parts[0].mesh.positions.size(), s.expected.size());
    std::filesystem::remove(path);
  }
}

TEST(GltfDocument, ASparseIndexOutsideTheAccessorIsNamed) {
  SparseBox s(true, 3);
  const int pos = s.b.m.meshes[0].primitives[0].attributes.at("POSITION");
  const tinygltf::Accessor& p = s.b.m.accessors[static_cast<std::size_t>(pos)];
  const tinygltf::BufferView& iv = s.b.m.bufferViews[static_cast<std::size_t>(p.sparse.indices.bufferView)];
  const std::uint16_t far = 9999;
  std::memcpy(s.b.m.buffers[0].data.data() + iv.byteOffset, &far, 2);
  const std::filesystem::path path = temp_file("sparse_bad.glb");
  s.b.write(path);
  const std::string what = error_of([&] { import_kit(path); });
  EXPECT_NE(what.find("sparse index 9999 is out of range"), std::string::npos) << what;
  std::filesystem::remove(path);
}

// Positions stored as plain unsigned shorts (as KHR_mesh_quantization allows; a node scale maps them
// back to metres).
ModelBuilder quantized_box(bool declare) {
  ModelBuilder b;
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), -1, false);
  const int node = b.mesh_node("box", mesh, -1, -1);
  b.m.nodes[static_cast<std::size_t>(node)].scale = {0.001, 0.001, 0.001};
  tinygltf::Primitive& prim = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0];
  std::vector<std::uint16_t> q;
  const int pos = prim.attributes.at("POSITION");
  const tinygltf::Accessor& a = b.m.accessors[static_cast<std::size_t>(pos)];
  const tinygltf::BufferView& bv = b.m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  std::vector<glm::vec3> p(a.count);
  std::memcpy(p.data(), b.m.buffers[0].data.data() + bv.byteOffset, p.size() * sizeof(glm::vec3));
  // Four components per element: 16-bit vertex attributes are padded to 4 bytes.
  for (const glm::vec3& v : p)
    q.insert(q.end(), {static_cast<std::uint16_t>(v.x * 1000.0f), static_cast<std::uint16_t>(v.y * 1000.0f),
                       static_cast<std::uint16_t>(v.z * 1000.0f), 0});
  const int qa =
      b.accessor(q.data(), p.size(), 8, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  b.m.bufferViews[static_cast<std::size_t>(b.m.accessors[static_cast<std::size_t>(qa)].bufferView)]
      .byteStride = 8;
  b.m.accessors[static_cast<std::size_t>(qa)].minValues = test::doubles(0, 0, 0);
  b.m.accessors[static_cast<std::size_t>(qa)].maxValues = test::doubles(1000, 1000, 1000);
  prim.attributes["POSITION"] = qa;
  if (declare) {
    b.m.extensionsUsed.push_back("KHR_mesh_quantization");
    b.m.extensionsRequired.push_back("KHR_mesh_quantization");
  }
  return b;
}

TEST(GltfDocument, QuantizedPositionsReadWithTheExtensionAndAreRefusedWithoutIt) {
  const std::filesystem::path path = temp_file("quantized.glb");
  quantized_box(true).write(path);
  const KitImport in = import_kit(path);
  ASSERT_EQ(in.kit.parts.size(), 1u);
  glm::vec3 hi(0.0f);
  for (const glm::vec3& v : in.kit.parts[0].mesh.positions) hi = glm::max(hi, v);
  // A rigid part's vertices are in the model's space: the node's scale brings 1000 back to 1 m.
  EXPECT_NEAR(hi.x, 1.0f, 1e-5f);
  EXPECT_NEAR(hi.y, 1.0f, 1e-5f);
  quantized_box(false).write(path);
  const std::string what = error_of([&] { import_kit(path); });
  EXPECT_NE(what.find("KHR_mesh_quantization"), std::string::npos) << what;
  std::filesystem::remove(path);
}

TEST(GltfDocument, AFileRequiringAnUnreadExtensionNamesIt) {
  ModelBuilder b;
  b.mesh_node("box", b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), -1, false), -1, -1);
  b.m.extensionsUsed.push_back("EXT_meshopt_compression");
  b.m.extensionsRequired.push_back("EXT_meshopt_compression");
  const std::filesystem::path path = temp_file("meshopt.glb");
  b.write(path);
  const std::string what = error_of([&] { gltf::load(path); });
  EXPECT_NE(what.find("requires glTF extensions Myriad does not read: EXT_meshopt_compression"),
            std::string::npos)
      << what;
  std::filesystem::remove(path);
}

// One mesh with a primitive per entry of `modes`, each over the unit quad in z = 0 (strip order, fan
// order round the quad, or lines through the same four points).
ModelBuilder quad_primitives(std::initializer_list<int> modes) {
  ModelBuilder b;
  const std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const std::vector<glm::vec3> n(4, glm::vec3(0, 0, 1));
  tinygltf::Mesh mesh;
  mesh.name = "quads";
  for (const int mode : modes) {
    // Strip order 0 1 2 3; fan order 0 1 3 2 (round the quad); lines along two edges.
    const std::vector<std::uint32_t> idx = mode == TINYGLTF_MODE_TRIANGLE_FAN
                                               ? std::vector<std::uint32_t>{0, 1, 3, 2}
                                               : std::vector<std::uint32_t>{0, 1, 2, 3};
    tinygltf::Primitive prim;
    prim.mode = mode;
    prim.attributes["POSITION"] = b.positions(p);
    prim.attributes["NORMAL"] =
        b.accessor(n.data(), n.size(), 12, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT);
    prim.indices =
        b.accessor(idx.data(), idx.size(), 4, TINYGLTF_TYPE_SCALAR, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    mesh.primitives.push_back(prim);
  }
  b.m.meshes.push_back(mesh);
  b.mesh_node("quads", 0, -1, -1);
  return b;
}

// Strips and fans are unrolled into triangles that all face the way the file's winding says (+Z here);
// points and lines are listed as left out, and a model of nothing else is refused saying so.
TEST(GltfDocument, StripsAndFansAreTrianglesAndLinesAreNamed) {
  const std::filesystem::path path = temp_file("modes.glb");
  quad_primitives({TINYGLTF_MODE_TRIANGLE_STRIP, TINYGLTF_MODE_TRIANGLE_FAN, TINYGLTF_MODE_LINE}).write(path);
  const KitImport in = import_kit(path);
  ASSERT_EQ(in.kit.parts.size(), 2u);
  for (const AvatarPart& part : in.kit.parts) {
    const SkinnedMesh& m = part.mesh;
    ASSERT_EQ(m.indices.size(), 6u) << m.name;
    float area = 0.0f;
    for (std::size_t t = 0; t < 6; t += 3) {
      const glm::vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]],
                      c = m.positions[m.indices[t + 2]];
      const glm::vec3 face = glm::cross(b - a, c - a);
      EXPECT_GT(face.z, 0.0f) << m.name << " triangle " << t / 3 << " faces away";
      area += 0.5f * glm::length(face);
    }
    EXPECT_NEAR(area, 1.0f, 1e-6f) << m.name << ": the two triangles do not cover the quad";
  }
  ASSERT_EQ(in.ignored.size(), 1u);
  EXPECT_NE(in.ignored[0].find("1 point or line primitives"), std::string::npos) << in.ignored[0];
  quad_primitives({TINYGLTF_MODE_LINE_STRIP}).write(path);
  const std::string what = error_of([&] { import_kit(path); });
  EXPECT_NE(what.find("only points or lines"), std::string::npos) << what;
  // A strip of two indices: a triangle primitive with no triangle, and nothing else in the model.
  ModelBuilder bare = quad_primitives({TINYGLTF_MODE_TRIANGLE_STRIP});
  const int two = bare.m.meshes[0].primitives[0].indices;
  bare.m.accessors[static_cast<std::size_t>(two)].count = 2;
  bare.write(path);
  const std::string none = error_of([&] { import_kit(path); });
  EXPECT_NE(none.find("the model's meshes hold no triangles"), std::string::npos) << none;
  std::filesystem::remove(path);
}

// The mesh of the one part of the model `b` writes to a file named `name`, read back as a kit.
SkinnedMesh only_part_of(const ModelBuilder& b, const std::string& name) {
  const std::filesystem::path path = temp_file(name);
  b.write(path);
  KitImport in = import_kit(path);
  std::filesystem::remove(path);
  if (in.kit.parts.size() != 1) throw std::runtime_error(name + ": expected one part");
  return std::move(in.kit.parts[0].mesh);
}

// The base colour texture's UV set (texCoord 1 here) is the one read, through its KHR_texture_transform
// (offset, rotation, scale as the extension defines them).
TEST(GltfDocument, TheBaseColourTexturesUvSetAndTransformAreApplied) {
  ModelBuilder b;
  const int material = b.texture_material("decal");
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), material, false);
  b.mesh_node("box", mesh, -1, -1);
  tinygltf::Primitive& prim = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0];
  std::vector<glm::vec2> uv1;
  for (int i = 0; i < 24; ++i) uv1.emplace_back(0.1f * float(i % 5), 0.05f * float(i));
  prim.attributes["TEXCOORD_1"] =
      b.accessor(uv1.data(), uv1.size(), 8, TINYGLTF_TYPE_VEC2, TINYGLTF_COMPONENT_TYPE_FLOAT);
  tinygltf::TextureInfo& info =
      b.m.materials[static_cast<std::size_t>(material)].pbrMetallicRoughness.baseColorTexture;
  info.texCoord = 1;
  tinygltf::Value::Object t;
  t["offset"] = tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(0.25), tinygltf::Value(0.5)});
  t["rotation"] = tinygltf::Value(1.5707963267948966);
  t["scale"] = tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(2.0), tinygltf::Value(3.0)});
  info.extensions["KHR_texture_transform"] = tinygltf::Value(t);
  b.m.extensionsUsed.push_back("KHR_texture_transform");
  const SkinnedMesh mesh_read = only_part_of(b, "uv_transform.glb");
  const std::vector<glm::vec2>& got = mesh_read.uvs;
  ASSERT_EQ(got.size(), uv1.size());
  for (std::size_t i = 0; i < uv1.size(); ++i) {
    // A quarter turn: u' = -sy v + ox, v' = sx u + oy.
    const glm::vec2 want(-3.0f * uv1[i].y + 0.25f, 2.0f * uv1[i].x + 0.5f);
    EXPECT_NEAR(got[i].x, want.x, 1e-5f) << "vertex " << i;
    EXPECT_NEAR(got[i].y, want.y, 1e-5f) << "vertex " << i;
  }
}

// The texture's sampler wrap modes reach the material, and survive a kit written and read back.
TEST(GltfDocument, TheTexturesWrapModesAreReadAndWritten) {
  ModelBuilder b;
  const int material = b.texture_material("tiles");
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), material, false);
  b.mesh_node("box", mesh, -1, -1);
  tinygltf::Sampler sampler;
  sampler.wrapS = 33648;  // MIRRORED_REPEAT
  sampler.wrapT = 33071;  // CLAMP_TO_EDGE
  b.m.samplers.push_back(sampler);
  const int texture =
      b.m.materials[static_cast<std::size_t>(material)].pbrMetallicRoughness.baseColorTexture.index;
  b.m.textures[static_cast<std::size_t>(texture)].sampler = 0;
  const std::filesystem::path path = temp_file("wrap.glb");
  b.write(path);
  KitImport in = import_kit(path);
  std::filesystem::remove(path);
  ASSERT_EQ(in.kit.materials.size(), 1u);
  const UvWrapModes want{UvWrap::kMirroredRepeat, UvWrap::kClampToEdge};
  EXPECT_EQ(in.kit.materials[0].texture_wrap, want);
  const std::string stem = "myriad_wrap_kit_" + std::to_string(::getpid());
  const KitImport again = write_and_import_kit(in.kit, std::filesystem::temp_directory_path(), stem);
  std::filesystem::remove(std::filesystem::temp_directory_path() / (stem + ".glb"));
  ASSERT_EQ(again.kit.materials.size(), 1u);
  EXPECT_EQ(again.kit.materials[0].texture_wrap, want);
  // Without a sampler the texture repeats, glTF's default.
  b.m.textures[static_cast<std::size_t>(texture)].sampler = -1;
  b.write(path);
  EXPECT_TRUE(import_kit(path).kit.materials[0].texture_wrap.repeats());
  std::filesystem::remove(path);
}

// Zero normals (as some exporters write for corners they could not smooth) are rebuilt from the faces.
TEST(GltfDocument, ZeroNormalsAreRebuiltFromTheFaces) {
  ModelBuilder b;
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), -1, false);
  b.mesh_node("box", mesh, -1, -1);
  const int nr = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0].attributes.at("NORMAL");
  const tinygltf::BufferView& bv =
      b.m.bufferViews[static_cast<std::size_t>(b.m.accessors[static_cast<std::size_t>(nr)].bufferView)];
  std::vector<glm::vec3> normals(24);
  std::memcpy(normals.data(), b.m.buffers[0].data.data() + bv.byteOffset, 24 * sizeof(glm::vec3));
  const std::vector<glm::vec3> zeros(24, glm::vec3(0.0f));
  std::memcpy(b.m.buffers[0].data.data() + bv.byteOffset, zeros.data(), 24 * sizeof(glm::vec3));
  const SkinnedMesh mesh_read = only_part_of(b, "zero_normals.glb");
  const std::vector<glm::vec3>& got = mesh_read.normals;
  ASSERT_EQ(got.size(), 24u);
  for (std::size_t v = 0; v < 24; ++v) EXPECT_LT(glm::length(got[v] - normals[v]), 1e-5f) << "vertex " << v;
}

// Morph targets at the weights the file sets: the node's weights override the mesh's, positions and
// normals move by weight × displacement, and a normal blended to zero is rebuilt from the faces. An
// animated morph keeps its targets and weights for the crowd VAT, and avatars name it as left out.
TEST(GltfDocument, MorphTargetsAreBlendedAtTheNodesWeights) {
  ModelBuilder b;
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), -1, false);
  const int node = b.mesh_node("box", mesh, -1, -1);
  tinygltf::Primitive& prim = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0];
  const tinygltf::Accessor& pa = b.m.accessors[static_cast<std::size_t>(prim.attributes.at("POSITION"))];
  const tinygltf::Accessor& na = b.m.accessors[static_cast<std::size_t>(prim.attributes.at("NORMAL"))];
  std::vector<glm::vec3> box(pa.count), normals(na.count);
  std::memcpy(box.data(), b.m.buffers[0].data.data() + b.m.bufferViews[std::size_t(pa.bufferView)].byteOffset,
              box.size() * sizeof(glm::vec3));
  std::memcpy(normals.data(),
              b.m.buffers[0].data.data() + b.m.bufferViews[std::size_t(na.bufferView)].byteOffset,
              normals.size() * sizeof(glm::vec3));
  // Target 0 lifts every corner by 2 and bends every normal by (4, 0, 0); target 1 moves everything 4 in X.
  const std::vector<glm::vec3> lift(box.size(), glm::vec3(0.0f, 2.0f, 0.0f)),
      bend(box.size(), glm::vec3(4.0f, 0.0f, 0.0f)), shift(box.size(), glm::vec3(4.0f, 0.0f, 0.0f));
  const auto vec3s = [&](const std::vector<glm::vec3>& v) {
    return b.accessor(v.data(), v.size(), sizeof(glm::vec3), TINYGLTF_TYPE_VEC3,
                      TINYGLTF_COMPONENT_TYPE_FLOAT);
  };
  const int lift_a = vec3s(lift), bend_a = vec3s(bend), shift_a = vec3s(shift);
  tinygltf::Primitive& p = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0];
  p.targets = {{{"POSITION", lift_a}, {"NORMAL", bend_a}}, {{"POSITION", shift_a}}};
  b.m.meshes[static_cast<std::size_t>(mesh)].weights = {0.5, 0.25};
  b.m.nodes[static_cast<std::size_t>(node)].weights = {0.25, 0.0};

  const SkinnedMesh read = only_part_of(b, "morph.glb");
  ASSERT_EQ(read.positions.size(), box.size());
  for (std::size_t v = 0; v < box.size(); ++v) {
    EXPECT_LT(glm::length(read.positions[v] - (box[v] + glm::vec3(0.0f, 0.5f, 0.0f))), 1e-5f)
        << "vertex " << v;
    // n + 0.25 * (4, 0, 0) normalised; the -X faces' normals cancel to zero and are rebuilt as -X.
    const glm::vec3 bent = normals[v] + glm::vec3(1.0f, 0.0f, 0.0f);
    const glm::vec3 want = glm::length(bent) > 0.5f ? glm::normalize(bent) : glm::vec3(-1.0f, 0.0f, 0.0f);
    EXPECT_LT(glm::length(read.normals[v] - want), 1e-5f) << "vertex " << v;
  }

  // Without node weights the mesh's apply; the same file animating them lists the morph as left out.
  b.m.nodes[static_cast<std::size_t>(node)].weights.clear();
  const std::vector<float> times = {0.0f, 1.0f}, values = {0.0f, 0.0f, 1.0f, 1.0f};
  // Weights are scalars, one per target a key.
  b.channel_clip("blink", node, "weights", times, values, TINYGLTF_TYPE_SCALAR, 1);
  const std::filesystem::path path = temp_file("morph_animated.glb");
  b.write(path);
  const KitImport in = import_kit(path);
  std::filesystem::remove(path);
  ASSERT_EQ(in.kit.parts.size(), 1u);
  const SkinnedMesh& by_mesh = in.kit.parts[0].mesh;
  for (std::size_t v = 0; v < box.size(); ++v)
    EXPECT_LT(glm::length(by_mesh.positions[v] - (box[v] + glm::vec3(1.0f, 1.0f, 0.0f))), 1e-5f)
        << "vertex " << v;
  // The part keeps each target's offsets and the weights its positions hold; the clip its weights.
  EXPECT_EQ(by_mesh.morph_node, node);
  EXPECT_EQ(by_mesh.morph_weights, (std::vector<float>{0.5f, 0.25f}));
  ASSERT_EQ(by_mesh.morph_positions.size(), 2u);
  ASSERT_EQ(by_mesh.morph_normals.size(), 2u);
  ASSERT_EQ(by_mesh.morph_positions[0].size(), box.size());
  ASSERT_EQ(by_mesh.morph_positions[1].size(), box.size());
  ASSERT_EQ(by_mesh.morph_normals[0].size(), box.size());
  for (std::size_t v = 0; v < box.size(); ++v) {  // a rigid part: through its (identity) placement
    EXPECT_LT(glm::length(by_mesh.morph_positions[0][v] - lift[v]), 1e-5f) << "vertex " << v;
    EXPECT_LT(glm::length(by_mesh.morph_positions[1][v] - shift[v]), 1e-5f) << "vertex " << v;
    EXPECT_LT(glm::length(by_mesh.morph_normals[0][v] - bend[v]), 1e-5f) << "vertex " << v;
  }
  EXPECT_TRUE(by_mesh.morph_normals[1].empty());
  ASSERT_EQ(in.kit.clips.size(), 1u);
  const Clip& blink = in.kit.clips[0];
  ASSERT_EQ(blink.morph_channels.size(), 1u);
  EXPECT_EQ(blink.morph_channels[0].node, node);
  EXPECT_EQ(blink.morph_channels[0].targets, 2u);
  EXPECT_EQ(blink.duration, 1.0f);
  std::vector<float> w(2);
  sample_morph_weights(blink, blink.morph_channels[0], 0.5f, w);
  EXPECT_EQ(w, (std::vector<float>{0.5f, 0.5f}));
  EXPECT_TRUE(in.ignored.empty());
  ASSERT_EQ(in.animated_morphs.size(), 1u);
  const std::vector<std::string> avatar = avatar_ignored(in);
  ASSERT_EQ(avatar.size(), 1u);
  EXPECT_NE(avatar[0].find("the animation of its 2 morph targets (the mesh is drawn at its default weights)"),
            std::string::npos)
      << avatar[0];

  // Weights that are not one per target per key are named.
  b.m.animations.clear();
  const std::vector<float> three = {0.0f, 1.0f, 1.0f};
  b.channel_clip("odd", node, "weights", times, three, TINYGLTF_TYPE_SCALAR, 1);
  b.write(path);
  const std::string error = error_of([&] { import_kit(path); });
  std::filesystem::remove(path);
  EXPECT_NE(error.find("animations[0].samplers[0].output"), std::string::npos) << error;
  EXPECT_NE(error.find("2 morph targets"), std::string::npos) << error;
}

// A 16-bit RGB PNG, written by hand (zlib stored blocks, no compression): 16-bit textures come from
// image editors and some exporters, and no encoder here writes them.
std::vector<unsigned char> png16_rgb(std::uint32_t width, std::uint32_t height,
                                     const std::vector<std::uint16_t>& samples) {
  const auto be32 = [](std::vector<unsigned char>& o, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) o.push_back(static_cast<unsigned char>(v >> s));
  };
  const auto crc32 = [](const unsigned char* d, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
      c ^= d[i];
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
  };
  std::vector<unsigned char> out = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  const auto chunk = [&](const char* type, const std::vector<unsigned char>& data) {
    be32(out, static_cast<std::uint32_t>(data.size()));
    std::vector<unsigned char> body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    out.insert(out.end(), body.begin(), body.end());
    be32(out, crc32(body.data(), body.size()));
  };
  std::vector<unsigned char> ihdr;
  be32(ihdr, width);
  be32(ihdr, height);
  ihdr.insert(ihdr.end(), {16, 2, 0, 0, 0});  // 16 bits, RGB, deflate, no filter, no interlace
  chunk("IHDR", ihdr);
  std::vector<unsigned char> raw;
  for (std::uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);  // row filter: none
    for (std::uint32_t i = 0; i < width * 3; ++i) {
      const std::uint16_t v = samples[y * width * 3 + i];
      raw.insert(raw.end(), {static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v & 0xFF)});
    }
  }
  std::uint32_t a = 1, b = 0;
  for (const unsigned char c : raw) a = (a + c) % 65521u, b = (b + a) % 65521u;
  const auto len = static_cast<std::uint16_t>(raw.size());
  std::vector<unsigned char> z = {0x78,
                                  0x01,
                                  0x01,
                                  static_cast<unsigned char>(len & 0xFF),
                                  static_cast<unsigned char>(len >> 8),
                                  static_cast<unsigned char>(~len & 0xFF),
                                  static_cast<unsigned char>((~len >> 8) & 0xFF)};
  z.insert(z.end(), raw.begin(), raw.end());
  be32(z, (b << 16) | a);
  chunk("IDAT", z);
  chunk("IEND", {});
  return out;
}

// A material written with KHR_materials_pbrSpecularGlossiness (the file requiring it): its diffuse
// factor and texture are the base colour, read through the diffuse texture's UV set, although its
// metal-rough fallback names another texture. The texture is a 16-bit PNG: read, the high bytes kept.
TEST(GltfDocument, SpecularGlossinessDiffuseAndSixteenBitTexturesAreRead) {
  ModelBuilder b;
  const int fallback = b.texture_material("fallback");  // an 8-bit 2 x 2 texture in its metal-rough slot
  const std::vector<std::uint16_t> samples = {0x1234, 0xABCD, 0xFF00, 0x00FF, 0x8080, 0x7F7F,
                                              0x0001, 0xFFFF, 0x4000, 0xC0DE, 0x2020, 0x9999};
  const std::vector<unsigned char> png = png16_rgb(2, 2, samples);
  tinygltf::Image img;
  img.name = "deep";
  img.bufferView =
      b.accessor(png.data(), png.size(), 1, TINYGLTF_TYPE_SCALAR, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
  img.bufferView = b.m.accessors[static_cast<std::size_t>(img.bufferView)].bufferView;
  img.mimeType = "image/png";
  b.m.images.push_back(img);
  tinygltf::Texture tex;
  tex.source = static_cast<int>(b.m.images.size() - 1);
  b.m.textures.push_back(tex);
  tinygltf::Material& mat = b.m.materials[static_cast<std::size_t>(fallback)];
  tinygltf::Value::Object diffuse_texture = {
      {"index", tinygltf::Value(static_cast<int>(b.m.textures.size() - 1))},
      {"texCoord", tinygltf::Value(1)}};
  tinygltf::Value::Array diffuse_factor = {tinygltf::Value(0.5), tinygltf::Value(0.25), tinygltf::Value(1.0),
                                           tinygltf::Value(1.0)};
  mat.extensions["KHR_materials_pbrSpecularGlossiness"] =
      tinygltf::Value(tinygltf::Value::Object{{"diffuseTexture", tinygltf::Value(diffuse_texture)},
                                              {"diffuseFactor", tinygltf::Value(diffuse_factor)},
                                              {"glossinessFactor", tinygltf::Value(0.3)}});
  b.m.extensionsUsed.push_back("KHR_materials_pbrSpecularGlossiness");
  b.m.extensionsRequired.push_back("KHR_materials_pbrSpecularGlossiness");
  const int mesh = b.box("box", glm::vec3(0.0f), glm::vec3(1.0f), fallback, false);
  b.mesh_node("box", mesh, -1, -1);
  // TEXCOORD_1: TEXCOORD_0 shifted by 3, so reading the wrong set shows.
  tinygltf::Primitive& prim = b.m.meshes[static_cast<std::size_t>(mesh)].primitives[0];
  const tinygltf::Accessor& uv0 = b.m.accessors[static_cast<std::size_t>(prim.attributes.at("TEXCOORD_0"))];
  std::vector<glm::vec2> uv1(uv0.count);
  std::memcpy(uv1.data(),
              b.m.buffers[0].data.data() + b.m.bufferViews[std::size_t(uv0.bufferView)].byteOffset,
              uv1.size() * sizeof(glm::vec2));
  for (glm::vec2& t : uv1) t += glm::vec2(3.0f);
  prim.attributes["TEXCOORD_1"] = b.accessor(uv1.data(), uv1.size(), sizeof(glm::vec2), TINYGLTF_TYPE_VEC2,
                                             TINYGLTF_COMPONENT_TYPE_FLOAT);

  const std::filesystem::path path = temp_file("spec_gloss.glb");
  b.write(path);
  const KitImport in = import_kit(path);
  std::filesystem::remove(path);
  ASSERT_EQ(in.kit.parts.size(), 1u);
  ASSERT_EQ(in.kit.materials.size(), 1u);
  const Material& got = in.kit.materials[0];
  EXPECT_EQ(got.base_color_factor, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
  ASSERT_GE(got.base_color_texture, 0);
  const Texture& t = in.kit.textures[static_cast<std::size_t>(got.base_color_texture)];
  ASSERT_EQ(t.width, 2u);
  ASSERT_EQ(t.height, 2u);
  for (std::size_t p = 0; p < 4; ++p) {
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_EQ(t.rgba8[p * 4 + k], samples[p * 3 + k] >> 8) << "pixel " << p << " channel " << k;
    EXPECT_EQ(t.rgba8[p * 4 + 3], 255);
  }
  ASSERT_EQ(in.kit.parts[0].mesh.uvs.size(), uv1.size());
  EXPECT_EQ(in.kit.parts[0].mesh.uvs[0], uv1[0]);
}

}  // namespace
}  // namespace myriad::anim
