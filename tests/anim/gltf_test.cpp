// glTF import on the shared models: joint counts, clips, textures; joint transforms of CesiumMan and
// Fox at given times against an independent, straightforward evaluation written here (tinygltf nodes,
// recursive parent walk, linear key search, explicit slerp); and clear errors for broken files.
#include "myriad/anim/clip/clip.hpp"
#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

namespace myriad::anim {
namespace {

std::filesystem::path asset(const char* name) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / name;
  if (!std::filesystem::exists(p))
    ADD_FAILURE() << "missing test asset " << p << " (see shared/assets/README.md)";
  return p;
}

// ---- independent reference ---------------------------------------------------------------------

struct RefTrs {
  glm::vec3 t{0.0f};
  glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 s{1.0f};
};

std::vector<float> ref_floats(const tinygltf::Model& m, int acc) {
  const tinygltf::Accessor& a = m.accessors[static_cast<std::size_t>(acc)];
  const tinygltf::BufferView& bv = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const int comps = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  EXPECT_EQ(a.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  const std::size_t stride = bv.byteStride ? bv.byteStride : static_cast<std::size_t>(comps) * 4;
  std::vector<float> out;
  for (std::size_t i = 0; i < a.count; ++i) {
    for (int k = 0; k < comps; ++k) {
      float f;
      std::memcpy(&f,
                  m.buffers[static_cast<std::size_t>(bv.buffer)].data.data() + bv.byteOffset + a.byteOffset +
                      i * stride + 4 * static_cast<std::size_t>(k),
                  4);
      out.push_back(f);
    }
  }
  return out;
}

glm::quat ref_slerp(glm::quat a, glm::quat b, float u) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.0f) {
    b = -b;
    d = -d;
  }
  if (d > 0.9995f) return glm::normalize(a * (1.0f - u) + b * u);
  const float th = std::acos(d);
  return glm::normalize(a * (std::sin((1.0f - u) * th) / std::sin(th)) +
                        b * (std::sin(u * th) / std::sin(th)));
}

std::vector<glm::mat4> reference_globals(const tinygltf::Model& m, int anim, float time) {
  std::vector<RefTrs> trs(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.translation.size() == 3) trs[i].t = {n.translation[0], n.translation[1], n.translation[2]};
    if (n.rotation.size() == 4)
      trs[i].r = glm::quat(static_cast<float>(n.rotation[3]), static_cast<float>(n.rotation[0]),
                           static_cast<float>(n.rotation[1]), static_cast<float>(n.rotation[2]));
    if (n.scale.size() == 3) trs[i].s = {n.scale[0], n.scale[1], n.scale[2]};
  }
  for (const auto& ch : m.animations[static_cast<std::size_t>(anim)].channels) {
    const auto& s =
        m.animations[static_cast<std::size_t>(anim)].samplers[static_cast<std::size_t>(ch.sampler)];
    EXPECT_EQ(s.interpolation, "LINEAR");
    const std::vector<float> in = ref_floats(m, s.input);
    const std::vector<float> out = ref_floats(m, s.output);
    const std::size_t comps = out.size() / in.size();
    std::size_t k0 = 0, k1 = 0;
    float u = 0.0f;
    if (time >= in.back()) {
      k0 = k1 = in.size() - 1;
    } else if (time > in.front()) {
      for (k1 = 1; in[k1] <= time; ++k1) {
      }
      k0 = k1 - 1;
      u = (time - in[k0]) / (in[k1] - in[k0]);
    }
    const float* a = &out[k0 * comps];
    const float* b = &out[k1 * comps];
    RefTrs& t = trs[static_cast<std::size_t>(ch.target_node)];
    if (ch.target_path == "rotation") {
      t.r = ref_slerp(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u);
    } else {
      const glm::vec3 v = glm::mix(glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]), u);
      (ch.target_path == "translation" ? t.t : t.s) = v;
    }
  }
  std::vector<int> parent(m.nodes.size(), -1);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    for (int c : m.nodes[i].children) parent[static_cast<std::size_t>(c)] = static_cast<int>(i);
  }
  std::vector<glm::mat4> global(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    glm::mat4 g(1.0f);
    for (int n = static_cast<int>(i); n >= 0; n = parent[static_cast<std::size_t>(n)]) {
      const RefTrs& t = trs[static_cast<std::size_t>(n)];
      const auto& mat = m.nodes[static_cast<std::size_t>(n)].matrix;
      if (mat.size() == 16) {  // a static matrix node (never animated, per the glTF spec)
        glm::mat4 local;
        for (int k = 0; k < 16; ++k)
          local[k / 4][k % 4] = static_cast<float>(mat[static_cast<std::size_t>(k)]);
        g = local * g;
        continue;
      }
      g = glm::translate(glm::mat4(1.0f), t.t) * glm::mat4_cast(t.r) * glm::scale(glm::mat4(1.0f), t.s) * g;
    }
    global[i] = g;
  }
  return global;
}

void compare_with_reference(const char* file, int clip, std::initializer_list<float> times) {
  const auto path = asset(file);
  const ImportedModel model = import_gltf(path);
  tinygltf::TinyGLTF loader;
  tinygltf::Model raw;
  std::string err, warn;
  const bool ok = path.extension() == ".glb" ? loader.LoadBinaryFromFile(&raw, &err, &warn, path.string())
                                             : loader.LoadASCIIFromFile(&raw, &err, &warn, path.string());
  ASSERT_TRUE(ok) << err;
  const Clip& c = model.clips[static_cast<std::size_t>(clip)];
  SamplingCache cache;
  cache.reset(c);
  LocalPose pose;
  pose.resize(model.skeleton.size());
  std::vector<glm::mat4> mine(model.skeleton.size());
  for (float t : times) {
    sample(model.skeleton, c, t, cache, pose);
    local_to_model(model.skeleton.parents, pose, mine);
    const std::vector<glm::mat4> ref = reference_globals(raw, clip, t);
    float scale = 0.0f;  // tolerance relative to the model's size
    for (const glm::mat4& g : ref) scale = std::max(scale, glm::length(glm::vec3(g[3])));
    for (std::size_t j = 0; j < model.skeleton.size(); ++j) {
      const glm::mat4 got = model.root_transform * mine[j];
      const glm::mat4& want = ref[static_cast<std::size_t>(model.joint_nodes[j])];
      for (int col = 0; col < 4; ++col) {
        const float tol = col == 3 ? 2e-5f * std::max(1.0f, scale) : 2e-5f;
        for (int r = 0; r < 3; ++r) {
          ASSERT_NEAR(got[col][r], want[col][r], tol)
              << file << " t=" << t << " joint " << model.skeleton.names[j];
        }
      }
    }
  }
}

TEST(Gltf, ImportsTheSharedModels) {
  const ImportedModel fox = import_gltf(asset("Fox.glb"));
  EXPECT_EQ(fox.skeleton.size(), 24u);
  ASSERT_EQ(fox.clips.size(), 3u);
  EXPECT_NEAR(fox.clips[0].duration, 3.42f, 0.01f);
  EXPECT_EQ(fox.meshes.at(0).positions.size(), 1728u);
  EXPECT_EQ(fox.meshes[0].indices.size(), 1728u);
  ASSERT_EQ(fox.textures.size(), 1u);
  EXPECT_EQ(fox.textures[0].rgba8.size(), std::size_t{fox.textures[0].width} * fox.textures[0].height * 4);
  EXPECT_EQ(fox.materials.at(0).base_color_texture, 0);

  const ImportedModel man = import_gltf(asset("cesium_man.gltf"));
  EXPECT_EQ(man.skeleton.size(), 19u);
  EXPECT_EQ(man.clips.size(), 1u);
  EXPECT_EQ(man.meshes[0].indices.size(), 4672u * 3u);
  EXPECT_EQ(man.meshes[0].uvs.size(), man.meshes[0].positions.size());
  EXPECT_EQ(man.textures.size(), 1u);

  EXPECT_EQ(import_gltf(asset("rigged_simple.gltf")).skeleton.size(), 2u);
  const ImportedModel simple = import_gltf(asset("SimpleSkin.gltf"));
  EXPECT_EQ(simple.skeleton.size(), 2u);
  EXPECT_EQ(simple.meshes[0].indices.size(), 24u);
  for (const ImportedModel* m : {&fox, &man, &simple}) {
    for (std::size_t j = 0; j < m->skeleton.size(); ++j)
      EXPECT_LT(m->skeleton.parents[j], static_cast<int>(j));
    for (const SkinnedMesh& mesh : m->meshes) {
      for (const glm::vec4& w : mesh.weights) EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
    }
  }
}

TEST(Gltf, CesiumManJointsMatchIndependentEvaluation) {
  compare_with_reference("cesium_man.gltf", 0, {0.0f, 0.37f, 1.0f, 1.51f, 2.5f});
}

TEST(Gltf, FoxJointsMatchIndependentEvaluation) {
  compare_with_reference("Fox.glb", 0, {0.0f, 1.3f, 3.0f});
  compare_with_reference("Fox.glb", 1, {0.1f, 0.5f});
  compare_with_reference("Fox.glb", 2, {0.25f, 1.0f});
}

TEST(Gltf, RiggedSimpleMatchesIndependentEvaluation) {
  compare_with_reference("rigged_simple.gltf", 0, {0.0f, 0.8f, 2.0f});
}

// ---- broken files ---------------------------------------------------------------------------

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("myriad_anim_" + name);
  std::ofstream(p) << text;
  return p;
}

std::string error_of(const std::filesystem::path& p) {
  try {
    import_gltf(p);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(Gltf, BrokenFilesGiveErrorsNamingTheField) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  EXPECT_NE(error_of("/nonexistent/x.gltf").find("not found"), std::string::npos);
  EXPECT_NE(error_of(write_temp("garbage.gltf", "{ not json")).find("parse failed"), std::string::npos);
  EXPECT_NE(error_of(write_temp("interp.gltf", replaced(simple, "\"LINEAR\"", "\"BEZIER\"")))
                .find("animations[0].samplers[0].interpolation"),
            std::string::npos);
  EXPECT_NE(error_of(write_temp("cubic.gltf", replaced(simple, "\"LINEAR\"", "\"CUBICSPLINE\"")))
                .find("animations[0].samplers[0].output"),
            std::string::npos);
  EXPECT_NE(error_of(write_temp("nojoints.gltf", replaced(simple, "\"JOINTS_0\":2,", "")))
                .find("attributes.JOINTS_0"),
            std::string::npos);
  EXPECT_NE(
      error_of(write_temp("noskin.gltf",
                          replaced(simple, "\"skins\":[{\"inverseBindMatrices\":4,\"joints\":[1,2]}],", "")))
          .find("skins"),
      std::string::npos);
  EXPECT_NE(error_of(write_temp("path.gltf", replaced(simple, "\"path\":\"rotation\"", "\"path\":\"twist\"")))
                .find("channels[0].target.path"),
            std::string::npos);
  // An accessor that reads past its buffer (count inflated).
  EXPECT_NE(error_of(write_temp("short.gltf", replaced(simple, "\"count\":10,\"type\":\"VEC3\"",
                                                       "\"count\":99,\"type\":\"VEC3\"")))
                .find("POSITION"),
            std::string::npos);
}

// ---- inputs found by fuzzing (fuzz/gltf_fields_fuzz.cpp) ----------------------------------------

std::string error_of_text(const std::string& text) {
  try {
    import_gltf_bytes(std::as_bytes(std::span(text)), false, "fuzzed.gltf", "/nonexistent");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Gltf, InMemoryImportMatchesTheFile) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  const ImportedModel a = import_gltf(asset("SimpleSkin.gltf"));
  const ImportedModel b = import_gltf_bytes(std::as_bytes(std::span(simple)), false, "SimpleSkin.gltf", {});
  EXPECT_EQ(a.skeleton.size(), b.skeleton.size());
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  EXPECT_EQ(a.meshes[0].indices, b.meshes[0].indices);
  EXPECT_EQ(a.clips.size(), b.clips.size());
}

// A count so large that stride x count wrapped around to a small number passed the bounds check, then
// sized a vector beyond max_size() (std::length_error instead of a myriad::Error).
TEST(Gltf, HugeAccessorCountIsAnError) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  for (const char* count : {"4611686018427387904", "1537228672809129302", "18446744073709551615"}) {
    const std::string e = error_of_text(replaced(simple, "\"count\":10,\"type\":\"VEC3\"",
                                                 std::string("\"count\":") + count + ",\"type\":\"VEC3\""));
    EXPECT_NE(e.find("reads past the end"), std::string::npos) << count << ": " << e;
  }
}

// A node listed among its own children made the walk from a joint up to its root never end.
TEST(Gltf, NodeCycleIsAnErrorNotAHang) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  const std::string e = error_of_text(replaced(simple, "\"children\":[1]}", "\"children\":[1,0]}"));
  EXPECT_NE(e.find("cycle"), std::string::npos) << e;
}

// An image whose bufferView runs past its buffer: tinygltf passed the out-of-range bytes straight to the
// image decoder (a heap over-read, found by fuzz/glb_fuzz.cpp); the import checks the view first.
TEST(Gltf, ImageViewOutsideItsBufferIsAnError) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  const std::string e = error_of_text(replaced(simple, "{\"buffer\":3,\"byteOffset\":0,\"byteLength\":240}]",
                                               "{\"buffer\":3,\"byteOffset\":0,\"byteLength\":240},"
                                               "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":100000}],"
                                               "\"images\":[{\"bufferView\":5,\"mimeType\":\"image/png\"}]"));
  EXPECT_NE(e.find("outside its buffer"), std::string::npos) << e;
}

// An embedded PNG whose chunk states far more bytes than follow made the decoder reserve hundreds of
// megabytes (found by fuzz_gltf_image as a timeout under ASan): refused before decoding.
TEST(Gltf, ImageChunkPastItsDataIsAnError) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  const std::string e = error_of_text(replaced(
      simple, "{\"buffer\":3,\"byteOffset\":0,\"byteLength\":240}]",
      "{\"buffer\":3,\"byteOffset\":0,\"byteLength\":240}],\"images\":[{\"uri\":\"data:image/png;base64,"
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAAByAAATJA22AElEQVR42mP4z8DwHwyBNAg0AABJSf////////////"
      "9JRU5ErkJwgg==\"}]"));
  EXPECT_NE(e.find("PNG chunk states"), std::string::npos) << e;
}

// An empty POSITION accessor reached memcpy with a null source (undefined behaviour under UBSan).
TEST(Gltf, EmptyAccessorIsAnErrorNotUndefinedBehaviour) {
  const std::string simple = read_text(asset("SimpleSkin.gltf"));
  const std::string e =
      error_of_text(replaced(simple, "\"count\":10,\"type\":\"VEC3\"", "\"count\":0,\"type\":\"VEC3\""));
  EXPECT_NE(e.find("attribute count differs"), std::string::npos) << e;
}

}  // namespace
}  // namespace myriad::anim
