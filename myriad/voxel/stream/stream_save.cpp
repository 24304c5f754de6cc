// The saved column file (.mvxc, docs/FORMATS.md): an edited column's materials and forms, tied to the
// world size, column and generator settings it belongs to; written atomically, read with every field
// checked.
#include <string>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::voxel {

std::filesystem::path column_save_path(const std::filesystem::path& directory, glm::ivec2 c) {
  return directory / ("column_" + std::to_string(c.x) + "_" + std::to_string(c.y) + ".mvxc");
}
namespace {

constexpr std::uint32_t kColumnMagic = 0x4358564D;  // "MVXC"
constexpr std::uint32_t kColumnVersion = 1;
constexpr FileFormat kColumnFormat{kColumnMagic, kColumnVersion, "voxel column file",
                                   "delete the file (the column is generated again, without its edits)"};

std::uint32_t generator_flags(const GeneratorParams& p) {
  return (p.round_edges ? 1u : 0u) | (p.caves ? 2u : 0u);
}

}  // namespace

void write_column_file(const std::filesystem::path& path, glm::ivec3 world_size, glm::ivec2 column,
                       const GeneratorParams& params, std::span<const std::uint8_t> materials,
                       std::span<const std::uint8_t> forms) {
  const std::size_t cells = std::size_t(world_size.y) * kSectionSize * kSectionSize;
  if (materials.size() != cells || forms.size() != cells)
    throw Error("column holds " + std::to_string(materials.size()) + " cells, the world's columns " +
                    std::to_string(cells),
                "write_column_file " + path.string(), "pass one whole column");
  BinaryWriter w;
  w.write_magic_version(kColumnFormat);
  w.write(world_size.x);
  w.write(world_size.y);
  w.write(world_size.z);
  w.write(column.x);
  w.write(column.y);
  w.write(params.seed);
  w.write(generator_flags(params));
  w.write(params.lamp_chance);
  const std::size_t header = w.write_seal_fields();
  w.write_array(materials);
  w.write_array(forms);
  w.seal(header);
  write_file_atomic(path, w.bytes());
}

void read_column_file(const std::filesystem::path& path, glm::ivec3 world_size, glm::ivec2 column,
                      const GeneratorParams& params, std::span<std::uint8_t> materials,
                      std::span<std::uint8_t> forms) {
  const std::vector<std::byte> bytes = read_file(path);
  BinaryReader r(path.string(), bytes);
  r.read_magic_version(kColumnFormat);
  // A field that must be this world's: an error names the field's own offset.
  auto expect = [&](auto wanted, const char* field, const char* what) {
    const std::size_t at = r.offset();
    const auto value = r.read<decltype(wanted)>(field);
    if (value == wanted) return;
    r.seek(at, field);
    r.fail(std::string(what) + " " + std::to_string(value) + " is not this world's " + std::to_string(wanted),
           field);
  };
  expect(std::int32_t(world_size.x), "world_size.x", "world size x");
  expect(std::int32_t(world_size.y), "world_size.y", "world size y");
  expect(std::int32_t(world_size.z), "world_size.z", "world size z");
  expect(std::int32_t(column.x), "column.x", "column x");
  expect(std::int32_t(column.y), "column.z", "column z");
  expect(std::uint64_t(params.seed), "seed", "generator seed");
  expect(generator_flags(params), "generator_flags", "generator flags");
  std::uint32_t lamp_bits = 0;
  std::memcpy(&lamp_bits, &params.lamp_chance, sizeof(float));
  expect(lamp_bits, "lamp_chance", "lamp chance (bits)");
  r.read_seal();
  const std::size_t cells = materials.size();
  const std::size_t first = r.offset();
  const auto m = r.read_bytes(cells, "materials");
  const auto f = r.read_bytes(cells, "forms");
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " bytes after the forms", "end");
  for (std::size_t i = 0; i < cells; ++i) {
    const auto mat = std::uint8_t(m[i]), form = std::uint8_t(f[i]);
    if (!valid_material(mat)) {
      r.seek(first + i, "materials");
      r.fail("unknown material id " + std::to_string(mat), "materials");
    }
    if (mat == kAir && form != kFormEmpty) {
      r.seek(first + cells + i, "forms");
      r.fail("air cell with form " + std::to_string(form) + " (air has form 0)", "forms");
    }
    if (form != stored_form(mat, form)) {
      r.seek(first + cells + i, "forms");
      r.fail("baked-model cell with form " + std::to_string(form) + " (a model's form is its turn, 0-3)",
             "forms");
    }
    materials[i] = mat;
    forms[i] = form;
  }
}

}  // namespace myriad::voxel
