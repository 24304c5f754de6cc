// The streamed world against the fixed one: every meshed section's mesh, every lit column's light and
// every generated column's cells equal generate_world + compute_light + WorldMesher of the same size and
// seed, after streaming, moving (eviction, slot reuse), edits, and saving edited columns across eviction.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include <unistd.h>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/stream/stream_world.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::voxel {
namespace {

using Key = std::tuple<int, int, int>;

struct Fixed {
  World world;
  std::vector<SectionMesh> meshes;
};

Fixed fixed_world(glm::ivec3 size, const GeneratorParams& params) {
  Fixed f{generate_world(size, params), {}};
  compute_light(f.world);
  WorldMesher mesher;
  mesher.mesh_all(f.world, {}, f.meshes);
  return f;
}

void remesh(Fixed& f) {
  WorldMesher mesher;
  mesher.mesh_all(f.world, {}, f.meshes);
}

// Updates until idle; records the sections the updates reported as holding geometry and counts the columns
// generated.
void settle(StreamWorld& s, glm::dvec3 camera, std::set<Key>* with_geometry = nullptr,
            int* generated = nullptr) {
  for (int i = 0; i < 200000; ++i) {
    const StreamUpdate& u = s.update(camera);
    if (generated) *generated += u.columns_generated;
    if (with_geometry) {
      for (const glm::ivec3 e : u.evicted) with_geometry->erase({e.x, e.y, e.z});
      for (const glm::ivec3 m : u.meshed) {
        const SectionMesh* mesh = s.mesh(m);
        ASSERT_NE(mesh, nullptr);
        if (mesh->vertices.empty())
          with_geometry->erase({m.x, m.y, m.z});
        else
          with_geometry->insert({m.x, m.y, m.z});
      }
    }
    if (s.idle()) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  FAIL() << "the stream did not settle";
}

template <class T>
std::vector<T> column_of(const World& w, std::span<const T> data, int cx, int cz) {
  std::vector<T> out;
  for (int sy = 0; sy < w.sections().y; ++sy) {
    const auto first = data.begin() + std::ptrdiff_t(w.section_index({cx, sy, cz})) * kSectionCells;
    out.insert(out.end(), first, first + kSectionCells);
  }
  return out;
}

bool same_mesh(const SectionMesh& a, const SectionMesh& b) {
  auto eq = [](const auto& x, const auto& y) {
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0);
  };
  return a.quad_vertices == b.quad_vertices && eq(a.vertices, b.vertices) && eq(a.indices, b.indices) &&
         eq(a.atlas, b.atlas);
}

// Compares everything resident with the fixed world; returns the number of meshed columns.
int expect_equal(const StreamWorld& s, const Fixed& f) {
  const World& w = f.world;
  int meshed = 0;
  for (int cz = 0; cz < s.columns().y; ++cz)
    for (int cx = 0; cx < s.columns().x; ++cx) {
      const ColumnState state = s.column_state({cx, cz});
      if (state == ColumnState::kAbsent || state == ColumnState::kGenerating) continue;
      const auto mats = s.column_materials({cx, cz});
      EXPECT_TRUE(std::equal(mats.begin(), mats.end(), column_of(w, w.materials(), cx, cz).begin()))
          << "materials of column " << cx << " " << cz;
      if (state == ColumnState::kLit || state == ColumnState::kMeshed) {
        const auto light = s.column_light({cx, cz});
        EXPECT_TRUE(std::equal(light.begin(), light.end(), column_of(w, w.lights(), cx, cz).begin()))
            << "light of column " << cx << " " << cz;
      }
      if (state != ColumnState::kMeshed) continue;
      ++meshed;
      for (int sy = 0; sy < w.sections().y; ++sy) {
        const SectionMesh* m = s.mesh({cx, sy, cz});
        EXPECT_NE(m, nullptr);
        if (!m) continue;
        EXPECT_TRUE(same_mesh(*m, f.meshes[std::size_t(w.section_index({cx, sy, cz}))]))
            << "mesh of section " << cx << " " << sy << " " << cz;
      }
    }
  return meshed;
}

// Columns within `r` (Chebyshev) of the camera's column, clipped to the world: all of them, or those meshed.
int columns_within(glm::ivec2 columns, glm::dvec3 camera, int r, const StreamWorld* meshed_in = nullptr) {
  const glm::ivec2 c{int(camera.x) / 16, int(camera.z) / 16};
  int n = 0;
  for (int z = std::max(0, c.y - r); z <= std::min(columns.y - 1, c.y + r); ++z)
    for (int x = std::max(0, c.x - r); x <= std::min(columns.x - 1, c.x + r); ++x)
      n += !meshed_in || meshed_in->column_state({x, z}) == ColumnState::kMeshed ? 1 : 0;
  return n;
}

// Everything resident equals the fixed world, and every column within the radius is meshed.
void expect_streamed(const StreamWorld& s, const Fixed& f, glm::dvec3 camera) {
  const int r = s.options().radius;
  EXPECT_GE(expect_equal(s, f), columns_within(s.columns(), camera, r));
  EXPECT_EQ(columns_within(s.columns(), camera, r, &s), columns_within(s.columns(), camera, r));
}

void expect_reported_equals_resident(const StreamWorld& s, const std::set<Key>& with_geometry) {
  std::set<Key> resident;
  for (int cz = 0; cz < s.columns().y; ++cz)
    for (int cx = 0; cx < s.columns().x; ++cx)
      for (int sy = 0; sy < s.options().world_size.y / 16; ++sy)
        if (const SectionMesh* m = s.mesh({cx, sy, cz}); m && !m->vertices.empty())
          resident.insert({cx, sy, cz});
  EXPECT_EQ(resident, with_geometry);
}

StreamOptions small_options(int radius) {
  StreamOptions o;
  o.world_size = {256, 64, 256};
  o.generator.seed = 5;
  o.generator.lamp_chance = 0.02f;
  o.radius = radius;
  o.worker_threads = 2;
  return o;
}

TEST(StreamWorld, MeshesEqualFixedWorldWhileMovingAndEvicting) {
  const StreamOptions o = small_options(3);
  const Fixed f = fixed_world(o.world_size, o.generator);
  StreamWorld s(o);
  std::set<Key> reported;
  int generated = 0;
  // Near the -x edge: edge columns (clamped heights, outside = air in sun) are included.
  glm::dvec3 cam{20.0, 40.0, 130.0};
  settle(s, cam, &reported, &generated);
  expect_streamed(s, f, cam);
  expect_reported_equals_resident(s, reported);
  const std::size_t pool_first = s.stats().pool_columns;
  // Fly to the far corner and back: far columns are evicted, their slots reused.
  for (const glm::dvec3 next : {glm::dvec3{130.0, 40.0, 130.0}, glm::dvec3{250.0, 40.0, 250.0},
                                glm::dvec3{130.0, 40.0, 20.0}, glm::dvec3{20.0, 40.0, 130.0}}) {
    cam = next;
    settle(s, cam, &reported, &generated);
    expect_streamed(s, f, cam);
    expect_reported_equals_resident(s, reported);
    const StreamStats st = s.stats();
    EXPECT_LE(st.resident_columns, std::size_t(columns_within(s.columns(), cam, 6)));
    // The running totals equal a walk over every slot (buffers swapped in, slots released and reused).
    const StreamStats walked = s.stats_walked();
    EXPECT_EQ(st.resident_columns, walked.resident_columns);
    EXPECT_EQ(st.resident_bytes, walked.resident_bytes);
    EXPECT_GT(st.resident_bytes, 0u);
  }
  EXPECT_EQ(s.column_state({15, 15}), ColumnState::kAbsent);  // the far corner was left behind
  // Slots ever made: the ring of radius + 3 (13 x 13) plus the columns that jobs in flight pinned when the
  // camera jumped (2 workers x 2 jobs x 3 x 3), not the columns generated (evicted slots were reused).
  const std::size_t pool = s.stats().pool_columns;
  EXPECT_LE(pool, std::size_t(13 * 13 + 4 * 9));
  EXPECT_GE(pool, pool_first);
  EXPECT_GT(std::size_t(generated), pool + 40) << "slots were not reused";
}

// The collect step's per-update budget: with one job taken per update, no update reports more than one
// column's stage, and the world still ends equal to the fixed one.
TEST(StreamWorld, ACollectBudgetOfOneTakesOneJobPerUpdateAndEndsTheSame) {
  StreamOptions o = small_options(2);
  o.max_collects_per_update = 1;
  const Fixed f = fixed_world(o.world_size, o.generator);
  StreamWorld s(o);
  const glm::dvec3 cam{130.0, 40.0, 130.0};
  int updates = 0, busiest = 0;
  for (; updates < 200000; ++updates) {
    const StreamUpdate& u = s.update(cam);
    busiest = std::max(busiest, u.columns_generated + u.columns_loaded + u.columns_lit + u.columns_meshed);
    if (s.idle()) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_TRUE(s.idle());
  EXPECT_EQ(busiest, 1);
  // 7 x 7 columns generated, 5 x 5 lit, 3 x 3... : one per update takes at least that many updates.
  EXPECT_GE(updates, 49 + 25 + 25);
  EXPECT_GE(expect_equal(s, f), columns_within(s.columns(), cam, 2));
  EXPECT_EQ(columns_within(s.columns(), cam, 2, &s), columns_within(s.columns(), cam, 2));
}

TEST(StreamWorld, TinyWorldsAndOneThread) {
  // A world of one column, and one narrower than the 3 x 3 window, on one worker thread.
  for (const glm::ivec3 size : {glm::ivec3{16, 32, 16}, glm::ivec3{32, 48, 64}}) {
    StreamOptions o = small_options(1);
    o.world_size = size;
    o.worker_threads = 1;
    o.max_jobs_in_flight = 1;
    const Fixed f = fixed_world(o.world_size, o.generator);
    StreamWorld s(o);
    settle(s, {8.0, 10.0, 8.0});
    EXPECT_EQ(expect_equal(s, f), columns_within(s.columns(), {8.0, 10.0, 8.0}, 1));
  }
}

TEST(StreamWorld, EditsRelightAndRemeshLikeEditVoxel) {
  const StreamOptions o = small_options(3);
  Fixed f = fixed_world(o.world_size, o.generator);
  StreamWorld s(o);
  const glm::dvec3 cam{128.0, 40.0, 128.0};
  settle(s, cam);
  std::mt19937 rng(11);
  // Digs, lamps and slopes around the camera, several on column borders (light crosses them).
  for (int k = 0; k < 40; ++k) {
    glm::ivec3 p{int(96 + rng() % 64), int(8 + rng() % 48), int(96 + rng() % 64)};
    if (k % 4 == 0) p.x = 112 + int(rng() % 2) * 15;  // x = 112 or 127: a column's first or last cell
    const std::uint8_t material = k % 3 == 0   ? std::uint8_t(kAir)
                                  : k % 3 == 1 ? std::uint8_t(kLampWarm + k % 3)
                                               : std::uint8_t(kStone);
    const std::uint8_t form = k % 5 == 0 ? std::uint8_t(0x3F) : std::uint8_t(kFormFull);
    s.edit(p, material, form);
    edit_voxel(f.world, p, material, form);
    if (k % 8 == 7) s.update(cam);  // some edits while jobs run, some queued together
  }
  settle(s, cam);
  remesh(f);
  expect_streamed(s, f, cam);
  EXPECT_THROW(s.edit({-1, 0, 0}, kStone, kFormFull), Error);
  EXPECT_THROW(s.edit({10, 0, 10}, 200, kFormFull), Error);
  EXPECT_THROW(s.edit({250, 10, 250}, kStone, kFormFull), Error);  // not resident
}

TEST(StreamWorld, AnEditReMeshesExactlyTheSectionsThatReadAChangedCell) {
  // One edit at a time, each settled: the sections the stream re-meshes (its own and those its relight
  // reaches) are exactly edit_voxel's dirty sections on the fixed world, in number and (those with
  // geometry, listed in `meshed`) by name, and the result equals meshing the edited world from scratch.
  const StreamOptions o = small_options(3);
  Fixed f = fixed_world(o.world_size, o.generator);
  StreamWorld s(o);
  const glm::dvec3 cam{128.0, 40.0, 128.0};
  settle(s, cam);
  std::mt19937 rng(23);
  int total = 0;
  for (int k = 0; k < 16; ++k) {
    // Near the surface of columns well inside the meshed radius, several on column and section borders.
    glm::ivec3 p{int(104 + rng() % 48), 0, int(104 + rng() % 48)};
    if (k % 3 == 0) p.x = 112 + 15 * int(rng() % 2);
    int top = o.world_size.y - 1;
    while (top > 0 && f.world.material({p.x, top, p.z}) == kAir) --top;
    p.y = top + (k % 2);
    if (k % 5 == 4) p.y = 16 * (p.y / 16);  // the bottom cell of a section
    const std::uint8_t material = k % 4 == 0   ? std::uint8_t(kAir)
                                  : k % 4 == 1 ? std::uint8_t(kLampCold)
                                               : std::uint8_t(kDirt);
    const std::uint8_t form = k % 4 == 3 ? std::uint8_t(0x5F) : kFormFull;
    const EditResult expected = edit_voxel(f.world, p, material, form);
    s.edit(p, material, form);
    int remeshed = 0, remeshed_uploaded = 0;
    std::set<int> listed;
    for (int i = 0; i < 200000; ++i) {
      const StreamUpdate& u = s.update(cam);
      remeshed += u.sections_remeshed;
      remeshed_uploaded += u.sections_remeshed_uploaded;
      for (const glm::ivec3 m : u.meshed) listed.insert(f.world.section_index(m));
      if (s.idle() && !s.edits_pending()) break;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    EXPECT_FALSE(s.edits_pending());
    EXPECT_EQ(remeshed, int(expected.dirty_sections.size())) << "edit " << k;
    EXPECT_EQ(remeshed_uploaded, int(listed.size())) << "edit " << k;
    for (const int section : listed)
      EXPECT_TRUE(std::binary_search(expected.dirty_sections.begin(), expected.dirty_sections.end(), section))
          << "edit " << k << " re-meshed section " << section;
    total += remeshed;
  }
  EXPECT_GT(total, 16);
  remesh(f);
  expect_streamed(s, f, cam);
}

TEST(StreamWorld, EditedColumnsSurviveEvictionWithSaveDirectory) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("myriad_stream_save_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  StreamOptions o = small_options(2);
  Fixed f = fixed_world(o.world_size, o.generator);
  const glm::dvec3 home{40.0, 40.0, 40.0}, away{240.0, 40.0, 240.0};
  const glm::ivec3 edits[] = {{40, 30, 40}, {41, 30, 40}, {47, 20, 31}, {32, 25, 47}};
  {
    // Without a save directory an evicted edit is lost: the column comes back generated.
    StreamWorld s(o);
    settle(s, home);
    s.edit(edits[0], kLampCold, kFormFull);
    settle(s, home);
    EXPECT_EQ(s.column_materials({2, 2})[std::size_t(1 * kSectionCells + cell_index(8, 14, 8))], kLampCold);
    settle(s, away);
    EXPECT_EQ(s.column_state({2, 2}), ColumnState::kAbsent);
    settle(s, home);
    expect_streamed(s, f, home);
  }
  o.save_directory = dir;
  {
    StreamWorld s(o);
    settle(s, home);
    for (const glm::ivec3 p : edits) {
      s.edit(p, kLampCold, kFormFull);
      edit_voxel(f.world, p, kLampCold, kFormFull);
    }
    settle(s, home);
    remesh(f);
    expect_streamed(s, f, home);
    settle(s, away);
    EXPECT_TRUE(std::filesystem::exists(s.save_path({2, 2})));
    EXPECT_TRUE(std::filesystem::exists(s.save_path({2, 1})));
    EXPECT_FALSE(std::filesystem::exists(s.save_path({5, 5})));  // never edited, never written
    settle(s, home);                                             // read back instead of generated
    expect_streamed(s, f, home);
  }
  {
    // A later run of the same world reads the files too.
    StreamWorld s(o);
    settle(s, home);
    expect_streamed(s, f, home);
    EXPECT_EQ(s.save_all(), 0);  // nothing edited since loading
  }
  {
    // A different world (seed) rejects the files with the file, the offset and the field.
    StreamOptions other = o;
    other.generator.seed = 6;
    StreamWorld s(other);
    try {
      settle(s, home);
      FAIL() << "a foreign save file was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("column_"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("@ offset 28"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
    }
  }
  // A flipped payload byte fails the checksum; a bad material (sealed again) names its own offset.
  const auto path = dir / "column_2_2.mvxc";
  std::vector<std::byte> bytes = read_file(path);
  std::vector<std::byte> flipped = bytes;
  flipped[100] ^= std::byte{0x40};
  write_file_atomic(path, flipped);
  std::vector<std::uint8_t> mats(std::size_t(4) * kSectionCells), forms(mats.size());
  try {
    read_column_file(path, o.world_size, {2, 2}, o.generator, mats, forms);
    FAIL() << "a corrupt file was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  bytes[60 + 5] = std::byte{200};
  seal_file(bytes, 60);
  write_file_atomic(path, bytes);
  try {
    read_column_file(path, o.world_size, {2, 2}, o.generator, mats, forms);
    FAIL() << "a bad material was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown material id 200"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("@ offset 65"), std::string::npos) << e.what();
  }
  // A baked model whose form is not a turn (0-3): refused at its form's offset.
  const std::size_t cells = mats.size();
  bytes[60 + 5] = std::byte{kFence};
  bytes[60 + cells + 5] = std::byte{7};
  seal_file(bytes, 60);
  write_file_atomic(path, bytes);
  try {
    read_column_file(path, o.world_size, {2, 2}, o.generator, mats, forms);
    FAIL() << "a model with a shape byte was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("baked-model cell with form 7"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("@ offset " + std::to_string(60 + cells + 5)), std::string::npos)
        << e.what();
  }
  {
    StreamWorld s(o);  // the stream reports it from update()
    EXPECT_THROW(settle(s, home), Error);
  }
  std::filesystem::remove_all(dir);
}

TEST(StreamWorld, RejectsBadOptions) {
  StreamOptions o = small_options(2);
  o.world_size = {100, 64, 256};
  EXPECT_THROW(StreamWorld{o}, Error);
  o = small_options(-1);
  EXPECT_THROW(StreamWorld{o}, Error);
}

}  // namespace
}  // namespace myriad::voxel
