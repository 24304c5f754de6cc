// Machine-readable targets of `myriad bench` figures: the numbers the source articles and the spec
// (SPEC.md) set, as a threshold and a direction, so a run can say met or not met. The free-text
// reference each suite attaches to a figure stays as it is; a target exists only where the articles or
// the spec state a number to reach.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace myriad::bench {

enum class Comparison {
  kAtMost,   // met when value <= threshold (times, bytes, ratios where lower is better)
  kAtLeast,  // met when value >= threshold (counts, savings)
};

struct Target {
  std::string key;  // figure key; '*' matches any run of characters ("crowd-bake.*_lod1_holes_pct")
  Comparison comparison = Comparison::kAtMost;
  double value = 0.0;
  // Another figure's key: the threshold is `value` times that figure of the same run ("below the
  // memory floor"). Empty: `value` is the threshold itself.
  std::string relative_to;
  std::string source;  // where the number comes from, e.g. "SPEC C7" or "article 003 (ozz)"
  // The target is about the full-size inputs (world size, instance count): a --quick run shows it but
  // does not judge it.
  bool full_run_only = false;
};

// The targets of every suite, in suite order.
std::span<const Target> reference_targets();

// The first target whose key pattern matches `key`, or nullptr.
const Target* find_target(std::span<const Target> targets, std::string_view key);

// '*' in `pattern` matches any run of characters (none included); everything else matches itself.
bool key_matches(std::string_view pattern, std::string_view key);

// Looks up another figure of the same run by key (for relative targets).
using FigureLookup = std::function<std::optional<double>(std::string_view key)>;

struct Verdict {
  std::optional<double> threshold;  // absent when a relative target's figure is missing
  std::optional<bool> met;          // absent when the threshold is unknown or the value is not finite
};

// `quick`: the run used smaller inputs, so targets marked full_run_only are not judged.
Verdict judge(const Target& target, double value, const FigureLookup& lookup, bool quick = false);

// A figure's value as the table, the chart and target descriptions print it: whole numbers below
// 10^12 in full (counts, bytes), others with 4 significant digits.
std::string format_value(double value);

// "<=" or ">=" (ASCII, for pictures drawn with the built-in font) or "≤"/"≥".
const char* comparison_symbol(Comparison comparison, bool ascii = false);

// The target as text, e.g. "≤ 6.5 ns" or "≤ 1 × vegetation.memory_floor_ns".
std::string describe_target(const Target& target, std::string_view unit, bool ascii = false);

}  // namespace myriad::bench
