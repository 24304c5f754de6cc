// Measured anchors of `myriad bench` figures: the values recorded in docs/BENCHMARKS.md, kept
// machine-readable in docs/benchmark_anchors.json so a run can print value / anchor. The file:
//
//   {"format": "myriad-benchmark-anchors", "version": 1,
//    "machines": {"<id>": "<description>", ...},
//    "anchors": {"<figure key>": {"value": 78.8, "unit": "ns", "date": "2026-11-30",
//                                 "machine": "<id>", "command": "...", "note": "..."}, ...}}
//
// "note" is optional; every other field is required, "machine" must name an entry of "machines" and
// "value" must be a finite number.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace myriad::bench {

struct Anchor {
  double value = 0.0;
  std::string unit;
  std::string date;     // YYYY-MM-DD of the measurement
  std::string machine;  // the description from "machines", not the id
  std::string command;  // the exact command that measured it
  std::string note;     // how the value was taken (e.g. "median of 3 runs"), may be empty
};

struct AnchorSet {
  std::string source;                     // file name, for messages
  std::map<std::string, Anchor> anchors;  // by figure key

  const Anchor* find(std::string_view key) const;
};

// Parses the file's text; throws myriad::Error naming `source` and the offending key or field.
AnchorSet parse_anchors(std::string_view text, std::string source);

// Reads and parses a file; throws myriad::Error when it is missing, unreadable or malformed.
AnchorSet load_anchors(const std::filesystem::path& path);

// docs/benchmark_anchors.json below the working folder when it exists (a run from the repository
// root), else the one of the source tree this binary was built from.
std::filesystem::path default_anchors_path();

}  // namespace myriad::bench
