// MagicaVoxel .vox import: files the tests write (several models, a scene graph with rotations and
// translations, palettes, emissive entries), the default palette, bad files with one-line errors
// naming chunk and offset, placement into the world (materials, light, dirty sections) and into a
// streamed world's save directory (vox_cells as StreamWorld edits, read back by a later stream).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/stream/stream_world.hpp"
#include "myriad/voxel/files/vox_file.hpp"
#include "myriad/voxel/files/vox_place.hpp"
#include "stream_test_support.hpp"

namespace myriad::voxel {
namespace {

using test_support::settle;

// An L of three voxels (x, then y, then z up) and a 2x1x3 column, each with its own colour.
VoxScene two_models() {
  VoxScene s;
  s.palette[1] = {200, 40, 30, 255};    // red
  s.palette[2] = {120, 120, 125, 255};  // grey
  s.palette[3] = {255, 220, 120, 255};  // warm light
  s.emissive[3] = true;
  VoxModel l;
  l.size = {2, 2, 2};
  l.voxels = {{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 2}, {0, 0, 1, 3}};
  VoxModel column;
  column.size = {2, 1, 3};
  for (std::uint8_t z = 0; z < 3; ++z)
    column.voxels.push_back({0, 0, z, 2}), column.voxels.push_back({1, 0, z, 2});
  s.models = {l, column};
  VoxInstance a;
  a.model = 0;
  a.translation = {1, 1, 1};  // size / 2 = (1, 1, 1): the model's voxels keep their coordinates
  a.name = "ell";
  VoxInstance b;
  b.model = 1;
  b.translation = {10, 0, 1};
  // 90 degrees about z: x' = -y, y' = x.
  b.rotation = {glm::ivec3(0, -1, 0), glm::ivec3(1, 0, 0), glm::ivec3(0, 0, 1)};
  s.instances = {a, b};
  return s;
}

std::string parse_error(const std::vector<std::byte>& bytes) {
  try {
    (void)parse_vox(bytes, "model.vox");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Vox, WrittenFileReadsBackWithModelsInstancesAndPalette) {
  const VoxScene s = two_models();
  const VoxScene r = parse_vox(serialize_vox(s), "mem.vox");
  EXPECT_EQ(r.version, 200u);
  ASSERT_EQ(r.models.size(), 2u);
  EXPECT_EQ(r.models[1].size, glm::ivec3(2, 1, 3));
  ASSERT_EQ(r.models[0].voxels.size(), 4u);
  EXPECT_EQ(r.models[0].voxels[3].z, 1);
  EXPECT_EQ(r.models[0].voxels[3].color, 3);
  ASSERT_EQ(r.instances.size(), 2u);
  EXPECT_EQ(r.instances[0].name, "ell");
  EXPECT_EQ(r.instances[1].translation, glm::ivec3(10, 0, 1));
  EXPECT_EQ(r.instances[1].rotation, s.instances[1].rotation);
  EXPECT_EQ(r.palette[1], glm::u8vec4(200, 40, 30, 255));
  EXPECT_TRUE(r.emissive[3]);
  EXPECT_FALSE(r.emissive[1]);
  EXPECT_FALSE(r.default_palette);
}

TEST(Vox, EveryRotationByteRoundTrips) {
  // The 48 signed permutations: 6 column orders x 8 sign patterns.
  const int orders[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
  for (const auto& order : orders) {
    for (int signs = 0; signs < 8; ++signs) {
      VoxScene s = two_models();
      std::array<glm::ivec3, 3> rows{glm::ivec3(0), glm::ivec3(0), glm::ivec3(0)};
      const int third = 3 - order[0] - order[1];
      rows[0][order[0]] = signs & 1 ? -1 : 1;
      rows[1][order[1]] = signs & 2 ? -1 : 1;
      rows[2][third] = signs & 4 ? -1 : 1;
      s.instances[1].rotation = rows;
      EXPECT_EQ(parse_vox(serialize_vox(s), "mem").instances[1].rotation, rows);
    }
  }
}

// A file written chunk by chunk, as another tool would: root transform (translation 5 0 0, 90 degrees
// about z) -> group -> a transform (translation 10 0 1) -> the shape of model 0.
std::vector<std::byte> nested_file() {
  BinaryWriter body;
  auto chunk = [&](const char* id, const BinaryWriter& content) {
    std::uint32_t fourcc = 0;
    std::memcpy(&fourcc, id, 4);
    body.write(fourcc);
    body.write(static_cast<std::uint32_t>(content.size()));
    body.write(std::uint32_t{0});
    body.write_array(std::span<const std::byte>(content.bytes()));
  };
  auto string = [](BinaryWriter& w, const std::string& text) {
    w.write(static_cast<std::int32_t>(text.size()));
    w.write_array(std::span<const char>(text.data(), text.size()));
  };
  BinaryWriter size, xyzi, root, group, inner, shape;
  size.write(glm::ivec3(2, 1, 3));
  xyzi.write(std::uint32_t{1});
  xyzi.write(VoxVoxel{1, 0, 2, 9});
  chunk("SIZE", size);
  chunk("XYZI", xyzi);
  root.write(std::int32_t{0});
  root.write(std::int32_t{0});  // no attributes
  root.write(std::int32_t{1});  // child: the group
  root.write(std::int32_t{-1});
  root.write(std::int32_t{-1});
  root.write(std::int32_t{1});  // one frame: _r = 1 | 0 << 2 | 16 (row 0 = (0, -1, 0), row 1 = (1, 0, 0))
  root.write(std::int32_t{2});
  string(root, "_r");
  string(root, "17");
  string(root, "_t");
  string(root, "5 0 0");
  chunk("nTRN", root);
  group.write(std::int32_t{1});
  group.write(std::int32_t{0});
  group.write(std::int32_t{1});
  group.write(std::int32_t{2});
  chunk("nGRP", group);
  inner.write(std::int32_t{2});
  inner.write(std::int32_t{1});
  string(inner, "_name");
  string(inner, "tower");
  inner.write(std::int32_t{3});
  inner.write(std::int32_t{-1});
  inner.write(std::int32_t{0});
  inner.write(std::int32_t{1});
  inner.write(std::int32_t{1});
  string(inner, "_t");
  string(inner, "10 0 1");
  chunk("nTRN", inner);
  shape.write(std::int32_t{3});
  shape.write(std::int32_t{0});
  shape.write(std::int32_t{1});
  shape.write(std::int32_t{0});
  shape.write(std::int32_t{0});
  chunk("nSHP", shape);
  chunk("LAYR", BinaryWriter{});  // an unknown-to-us chunk is skipped
  BinaryWriter file;
  file.write_array(std::span<const char>("VOX ", 4));
  file.write(std::uint32_t{150});
  file.write_array(std::span<const char>("MAIN", 4));
  file.write(std::uint32_t{0});
  file.write(static_cast<std::uint32_t>(body.size()));
  file.write_array(std::span<const std::byte>(body.bytes()));
  return file.bytes();
}

TEST(Vox, NestedTransformsCompose) {
  const VoxScene r = parse_vox(nested_file(), "nested.vox");
  EXPECT_TRUE(r.default_palette);
  ASSERT_EQ(r.instances.size(), 1u);
  EXPECT_EQ(r.instances[0].name, "tower");
  // root ∘ inner: rotation R_root, translation R_root · (10, 0, 1) + (5, 0, 0) = (0, 10, 1) + (5, 0, 0).
  const std::array<glm::ivec3, 3> rot{glm::ivec3(0, -1, 0), glm::ivec3(1, 0, 0), glm::ivec3(0, 0, 1)};
  EXPECT_EQ(r.instances[0].rotation, rot);
  EXPECT_EQ(r.instances[0].translation, glm::ivec3(5, 10, 1));
  // Placement applies rotation · (v − size / 2) + translation and maps the file's (x, y, z) to the
  // world's (x, z, −y): the 2 x 1 x 3 model turned 90 degrees about z spans 1 x 3 x 2 world voxels.
  World world(32, 32, 32);
  const VoxPlacement p = place_vox(world, r, {4, 4, 4}, map_vox_palette(r));
  EXPECT_EQ(p.max - p.min, glm::ivec3(1, 3, 2));
  EXPECT_EQ(p.voxels, 1u);
  // Voxel (1, 0, 2): local (0, 0, 1) → rotated (0, 0, 1) → (5, 10, 2); the box's low corner is
  // (5, 9 .. 10, 0 .. 2) → world (5, 0, -10) .. ; so the voxel sits at the top, at the box's low z.
  EXPECT_EQ(world.material({4, 6, 4}), map_vox_palette(r)[9]);
}

TEST(Vox, FileWithoutRgbaChunkUsesTheDefaultPalette) {
  const auto& p = vox_default_palette();
  EXPECT_EQ(p[0], glm::u8vec4(0));
  EXPECT_EQ(p[1], glm::u8vec4(255, 255, 255, 255));
  EXPECT_EQ(p[2], glm::u8vec4(255, 255, 204, 255));  // blue steps first
  EXPECT_EQ(p[7], glm::u8vec4(255, 204, 255, 255));
  EXPECT_EQ(p[215], glm::u8vec4(0, 0, 51, 255));   // the cube ends one before black
  EXPECT_EQ(p[216], glm::u8vec4(238, 0, 0, 255));  // then the red ramp ...
  EXPECT_EQ(p[226], glm::u8vec4(0, 238, 0, 255));
  EXPECT_EQ(p[236], glm::u8vec4(0, 0, 238, 255));
  EXPECT_EQ(p[255], glm::u8vec4(17, 17, 17, 255));  // ... and the grey ramp last
  // Strip the RGBA chunk (the last 12 + 1024 bytes before any MATL; write without emissive entries).
  VoxScene s = two_models();
  s.emissive = {};
  std::vector<std::byte> bytes = serialize_vox(s);
  bytes.resize(bytes.size() - (12 + 1024));
  const auto children = static_cast<std::uint32_t>(bytes.size() - 20);
  std::memcpy(bytes.data() + 16, &children, 4);
  const VoxScene r = parse_vox(bytes, "mem");
  EXPECT_TRUE(r.default_palette);
  EXPECT_EQ(r.palette, p);
}

TEST(Vox, DamagedFilesNameChunkAndOffset) {
  const std::vector<std::byte> good = serialize_vox(two_models());
  std::vector<std::byte> b = good;
  b[0] = std::byte{'X'};
  EXPECT_NE(parse_error(b).find("magic"), std::string::npos);
  // Truncated: the children size of MAIN runs past the end.
  b = good;
  b.resize(good.size() - 7);
  std::string e = parse_error(b);
  EXPECT_NE(e.find("MAIN"), std::string::npos) << e;
  EXPECT_NE(e.find("model.vox"), std::string::npos) << e;
  // A voxel outside its model: XYZI of model 0 starts after MAIN (20) + SIZE (24) + XYZI header (12).
  b = good;
  b[20 + 24 + 12 + 4] = std::byte{7};  // first voxel's x = 7 in a 2-wide model
  e = parse_error(b);
  EXPECT_NE(e.find("XYZI"), std::string::npos) << e;
  EXPECT_NE(e.find("offset"), std::string::npos) << e;
  // A model size of 0.
  b = good;
  std::memset(b.data() + 20 + 12, 0, 4);
  EXPECT_NE(parse_error(b).find("SIZE"), std::string::npos);
  // A voxel with palette index 0.
  b = good;
  b[20 + 24 + 12 + 4 + 3] = std::byte{0};
  EXPECT_NE(parse_error(b).find("palette index 0"), std::string::npos);
  // No model at all.
  VoxScene empty = two_models();
  empty.models.clear();
  empty.instances.clear();
  EXPECT_NE(parse_error(serialize_vox(empty)).find("no model"), std::string::npos);
  // A shape naming a model that does not exist.
  VoxScene wrong = two_models();
  wrong.instances[1].model = 5;
  EXPECT_NE(parse_error(serialize_vox(wrong)).find("names model 5"), std::string::npos);
  // Every truncation of a good file fails with a myriad::Error (never a crash or another exception).
  for (std::size_t n = 0; n < good.size(); n += 3) {
    const std::vector<std::byte> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
    EXPECT_THROW((void)parse_vox(cut, "cut.vox"), Error) << n;
  }
}

TEST(Vox, PaletteMapsToNearestMaterialAndEmissiveToLamps) {
  const VoxScene s = two_models();
  const auto m = map_vox_palette(s);
  EXPECT_EQ(m[0], kAir);
  for (std::size_t i = 1; i < 256; ++i) EXPECT_NE(m[i], kAir) << i;
  EXPECT_EQ(m[2], kStone);     // grey
  EXPECT_EQ(m[3], kLampWarm);  // emissive warm
  const Material& red = materials()[m[1]];
  EXPECT_EQ(red.emit_r + red.emit_g + red.emit_b, 0) << "a non-emissive colour never becomes a lamp";
}

TEST(Vox, PlacementSetsMaterialsRelightsAndReportsDirtySections) {
  World world(48, 32, 48);
  compute_light(world);  // empty world: full sun everywhere
  const VoxScene s = two_models();
  const auto materials_of = map_vox_palette(s);
  const VoxPlacement p = place_vox(world, s, {20, 4, 20}, materials_of);
  EXPECT_EQ(p.voxels, 4u + 6u);
  EXPECT_EQ(p.min, glm::ivec3(20, 4, 20));
  // Model 0's voxel (0,0,0) is the box's lowest x and height; the L's upright voxel (vox z = 1) is above it.
  // The instances span vox x 0..10, y -1..1, z 0..2 → world x 0..10, y 0..2, z -1..1 (relative).
  EXPECT_EQ(p.max, glm::ivec3(31, 7, 23));
  EXPECT_EQ(world.material({20, 4, 21}), materials_of[1]);  // vox (0,0,0) → world (0, 0, 0) + (0, 0, 1)
  EXPECT_EQ(world.form({20, 4, 21}), 255);
  EXPECT_EQ(world.material({20, 5, 21}), kLampWarm);  // vox (0,0,1): one up
  EXPECT_EQ(p.per_material[kLampWarm], 1u);
  // The lamp lights its neighbours; the cells under the model lost the sun.
  EXPECT_GT(light_channel(world.light({20, 6, 21}), 0), 0);
  EXPECT_LT(light_channel(world.light({20, 3, 21}), 3), kLightMax);
  EXPECT_FALSE(p.dirty_sections.empty());
  EXPECT_TRUE(std::is_sorted(p.dirty_sections.begin(), p.dirty_sections.end()));
  // Relighting the whole world from scratch gives the same light: the incremental relight was exact.
  World fresh = world;
  compute_light(fresh);
  EXPECT_TRUE(std::equal(fresh.lights().begin(), fresh.lights().end(), world.lights().begin()));
}

TEST(Vox, ModelThatLeavesTheWorldIsRefusedAndTheWorldIsUnchanged) {
  World world(32, 32, 32);
  const VoxScene s = two_models();
  const std::vector<std::uint8_t> before(world.materials().begin(), world.materials().end());
  try {
    (void)place_vox(world, s, {28, 0, 0}, map_vox_palette(s));
    ADD_FAILURE() << "placed outside the world";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the world"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--at"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::equal(before.begin(), before.end(), world.materials().begin()));
}

TEST(Vox, CellsAreWhatPlaceVoxSets) {
  World world(48, 32, 48);
  const VoxScene s = two_models();
  const auto materials_of = map_vox_palette(s);
  const std::vector<VoxCell> cells = vox_cells(s, {20, 4, 20}, materials_of);
  const VoxPlacement p = place_vox(world, s, {20, 4, 20}, materials_of);
  ASSERT_EQ(cells.size(), p.voxels);
  std::size_t set = 0;
  for (const VoxCell& c : cells) {
    EXPECT_TRUE(glm::all(glm::greaterThanEqual(c.p, p.min)) && glm::all(glm::lessThan(c.p, p.max)));
    EXPECT_EQ(world.material(c.p), c.material);
    EXPECT_EQ(world.form(c.p), kFormFull);
  }
  for (std::size_t i = 0; i < world.materials().size(); ++i) set += world.materials()[i] != kAir;
  EXPECT_EQ(set, cells.size()) << "place_vox set no other cell (the instances do not overlap)";
}

TEST(Vox, StreamedImportSavesColumnsThatALaterStreamReadsBack) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("myriad_vox_stream_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto file = dir / "model.vox";
  write_file_atomic(file, serialize_vox(two_models()));
  const VoxScene scene = read_vox(file);
  const auto materials_of = map_vox_palette(scene);
  // Across a column border in x (x 108..118: columns 6 and 7).
  const glm::ivec3 at{108, 30, 118};
  const std::vector<VoxCell> cells = vox_cells(scene, at, materials_of);
  ASSERT_EQ(cells.size(), 10u);
  std::set<std::pair<int, int>> columns;
  for (const VoxCell& c : cells) columns.insert({c.p.x >> 4, c.p.z >> 4});
  ASSERT_GE(columns.size(), 2u);

  StreamOptions o;
  o.world_size = {256, 64, 256};
  o.generator.seed = 5;
  o.radius = 2;
  o.worker_threads = 2;
  o.save_directory = dir / "saves";
  const glm::dvec3 camera = glm::dvec3(at) + glm::dvec3(vox_extent(scene)) * 0.5;
  {
    StreamWorld s(o);
    settle(s, camera);
    for (const VoxCell& c : cells) s.edit(c.p, c.material, kFormFull);
    settle(s, camera);
    EXPECT_EQ(s.save_all(), int(columns.size())) << "exactly the columns holding model cells are saved";
  }
  for (const auto& [cx, cz] : columns)
    EXPECT_TRUE(std::filesystem::exists(
        o.save_directory / ("column_" + std::to_string(cx) + "_" + std::to_string(cz) + ".mvxc")));
  {
    // A later stream of the same world, elsewhere first (nothing of the model resident), then at the model.
    StreamWorld s(o);
    settle(s, {20.0, 40.0, 20.0});
    settle(s, camera);
    for (const VoxCell& c : cells) {
      const glm::ivec2 column{c.p.x >> 4, c.p.z >> 4};
      ASSERT_NE(s.column_state(column), ColumnState::kAbsent);
      const std::size_t i = std::size_t(c.p.y >> 4) * kSectionCells +
                            std::size_t(cell_index(c.p.x & 15, c.p.y & 15, c.p.z & 15));
      EXPECT_EQ(s.column_materials(column)[i], c.material) << c.p.x << "," << c.p.y << "," << c.p.z;
      EXPECT_EQ(s.column_forms(column)[i], kFormFull);
    }
    EXPECT_EQ(s.save_all(), 0) << "read back, not edited";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace myriad::voxel
