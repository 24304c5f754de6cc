// glTF files as other exporters and optimisers write them, read through gltf::Document: sparse
// accessors (with and without a base view) read as their dense values, plain-integer attributes of a
// file using KHR_mesh_quantization read as numbers (and are refused without it), and a file requiring an
// extension Myriad does not read fails naming that extension; triangle strips and fans read as
// triangle lists, points and lines are named as left out; the base colour texture's UV set and
// KHR_texture_transform are applied; zero normals are rebuilt from the faces.
#include "kit_test_models.hpp"

#include "myriad/anim/import/kit_import.hpp"
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

}  // namespace
}  // namespace myriad::anim
