// A `myriad bench` run judged: each figure next to its target (met / not met) and its recorded
// anchor (value / anchor), printed as a table and written as JSON. Pure functions of the figures, the
// targets and the anchors, so they are tested without running a suite.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anchors.hpp"
#include "references.hpp"
#include "suite.hpp"

namespace myriad::bench {

struct Row {
  Figure figure;
  const Target* target = nullptr;  // from the target table, which outlives every Row
  Verdict verdict;
  std::optional<Anchor> anchor;
  // value / anchor; absent without an anchor, when the units differ or the anchor is 0.
  std::optional<double> anchor_ratio;
};

// `anchors` may be null (no anchors file). `quick`: the run used smaller inputs (see Target).
std::vector<Row> evaluate(std::span<const Figure> figures, std::span<const Target> targets,
                          const AnchorSet* anchors, bool quick);

// Where and how the figures were measured, for the JSON.
struct RunInfo {
  std::string date;  // UTC, ISO 8601
  std::string cpu;   // model name from /proc/cpuinfo ("unknown" elsewhere)
  unsigned threads = 0;
  double memory_gib = 0.0;
  std::string build;  // CMake build type of this binary
  std::vector<std::string> suites;
  int repetitions = 0;
  bool quick = false;
  std::string anchors_file;  // empty when none was read
};

// Date, CPU, threads, memory and build of the machine at hand; the caller fills the rest.
RunInfo describe_this_machine();

// The table header and one line per row; "—" where a figure has no reference, target or anchor.
std::string table_header();
std::string table_line(const Row& row);

// The documented JSON of a run (docs/BENCHMARKS.md): {"format", "version", "run", "values",
// "figures": [...]}, "values" being the flat key -> value object earlier versions wrote.
nlohmann::ordered_json to_json(std::span<const Row> rows, const RunInfo& run);

}  // namespace myriad::bench
