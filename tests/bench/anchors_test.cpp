#include "anchors.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <vector>
#include <string>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad::bench {
namespace {

std::string with_anchor(const std::string& entry, const std::string& machines = R"({"vm": "2 cores"})") {
  return R"({"format": "myriad-benchmark-anchors", "version": 1, "machines": )" + machines +
         R"(, "anchors": {"core.octa_pack_ns": )" + entry + "}}";
}

const std::string kGood =
    R"({"value": 78.8, "unit": "ns", "date": "2026-11-30", "machine": "vm", "command": "myriad bench core"})";

// The message of the Error `text` raises (fails the test when it parses).
std::string parse_error(const std::string& text) {
  try {
    parse_anchors(text, "anchors.json");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "parsed without an error: " << text;
  return {};
}

TEST(BenchAnchors, ParsesAnEntry) {
  const AnchorSet set = parse_anchors(with_anchor(kGood), "anchors.json");
  const Anchor* a = set.find("core.octa_pack_ns");
  ASSERT_NE(a, nullptr);
  EXPECT_DOUBLE_EQ(a->value, 78.8);
  EXPECT_EQ(a->unit, "ns");
  EXPECT_EQ(a->date, "2026-11-30");
  EXPECT_EQ(a->machine, "2 cores");  // the description, not the id
  EXPECT_EQ(a->command, "myriad bench core");
  EXPECT_TRUE(a->note.empty());
  EXPECT_EQ(set.find("core.octa_unpack_ns"), nullptr);
}

TEST(BenchAnchors, ErrorsNameTheFileTheKeyAndTheField) {
  EXPECT_NE(parse_error("{\"format\": ").find("not valid JSON"), std::string::npos);
  EXPECT_NE(parse_error("[1, 2]").find("top level"), std::string::npos);
  EXPECT_NE(parse_error(R"({"format": "other", "version": 1})").find("not a benchmark anchors file"),
            std::string::npos);
  EXPECT_NE(
      parse_error(R"({"format": "myriad-benchmark-anchors", "version": 7, "machines": {}, "anchors": {}})")
          .find("unsupported anchors version 7"),
      std::string::npos);

  const std::string no_unit =
      parse_error(with_anchor(R"({"value": 1, "date": "2026-11-30", "machine": "vm", "command": "c"})"));
  EXPECT_NE(no_unit.find("missing field \"unit\""), std::string::npos) << no_unit;
  EXPECT_NE(no_unit.find("anchors.json: anchors.core.octa_pack_ns"), std::string::npos) << no_unit;

  const std::string text_value = parse_error(
      with_anchor(R"({"value": "fast", "unit": "ns", "date": "d", "machine": "vm", "command": "c"})"));
  EXPECT_NE(text_value.find("\"value\" has the wrong type (string)"), std::string::npos) << text_value;

  const std::string unknown_machine = parse_error(
      with_anchor(R"({"value": 1, "unit": "ns", "date": "d", "machine": "laptop", "command": "c"})"));
  EXPECT_NE(unknown_machine.find("machine \"laptop\" is not described"), std::string::npos)
      << unknown_machine;

  EXPECT_NE(parse_error(with_anchor("42")).find("an anchor must be an object"), std::string::npos);
  EXPECT_NE(parse_error(with_anchor(kGood, "[]")).find("\"machines\" has the wrong type"), std::string::npos);
}

// Found by fuzz/bench_anchors_fuzz.cpp: the JSON parser reports a number beyond double range with
// out_of_range rather than parse_error, which escaped as an unexpected exception.
TEST(BenchAnchors, NumberOverflowIsAnError) {
  EXPECT_NE(parse_error(R"({"format": "myriad-benchmark-anchors", "version": 1e999})").find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(parse_error(with_anchor(R"({"value": -1e400, "unit": "ns", "date": "d", "machine": "vm",
                                        "command": "c"})"))
                .find("not valid JSON"),
            std::string::npos);
}

TEST(BenchAnchors, FileErrors) {
  EXPECT_THROW(load_anchors("/nonexistent/anchors.json"), Error);
  EXPECT_THROW(load_anchors(std::filesystem::temp_directory_path()), Error);  // a folder
}

// The anchors shipped in docs/ parse and hold the figures docs/BENCHMARKS.md records.
TEST(BenchAnchors, ShippedFileParses) {
  const AnchorSet set =
      load_anchors(std::filesystem::path(MYRIAD_SOURCE_DIR) / "docs" / "benchmark_anchors.json");
  EXPECT_GT(set.anchors.size(), 100u);
  // Spot checks: these anchors' values are written in docs/BENCHMARKS.md (anchors follow the document
  // when figures are re-measured).
  const std::vector<std::byte> bytes =
      read_file(std::filesystem::path(MYRIAD_SOURCE_DIR) / "docs" / "BENCHMARKS.md");
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  ASSERT_FALSE(text.empty());
  for (const char* key :
       {"core.octa_pack_ns", "batch.local_to_model_ns_per_joint", "voxel.cube_section_us"}) {
    const Anchor* anchor = set.find(key);
    ASSERT_NE(anchor, nullptr) << key;
    char number[32];
    std::snprintf(number, sizeof number, "%g", anchor->value);
    EXPECT_NE(text.find(number), std::string::npos) << key << " = " << number << " is not in BENCHMARKS.md";
  }
  for (const auto& [key, anchor] : set.anchors) {
    EXPECT_NE(key.find('.'), std::string::npos) << key;
    EXPECT_FALSE(anchor.command.empty()) << key;
    EXPECT_NE(anchor.command.find("myriad bench "), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace myriad::bench
