#include "evaluation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <string_view>
#include <thread>

#ifndef MYRIAD_BUILD_TYPE
#define MYRIAD_BUILD_TYPE "unknown"
#endif

namespace myriad::bench {
namespace {

constexpr const char* kDash = "\xE2\x80\x94";  // em dash: "no value"

std::string ratio_text(double v) {
  if (!std::isfinite(v)) return "nan";
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.2f", v);
  return buffer;
}

// Columns are padded by characters shown, not bytes, so "≤" and "—" keep the table aligned.
std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string pad_right(std::string s, std::size_t width) {
  const std::size_t w = display_width(s);
  if (w < width) s.append(width - w, ' ');
  return s;
}

std::string pad_left(std::string s, std::size_t width) {
  const std::size_t w = display_width(s);
  if (w < width) s.insert(0, width - w, ' ');
  return s;
}

std::string join_columns(const std::string& key, const std::string& value, const std::string& unit,
                         const std::string& target, const std::string& met, const std::string& anchor,
                         const std::string& ratio, const std::string& reference) {
  return pad_right(key, 44) + " " + pad_left(value, 11) + "  " + pad_right(unit, 12) + " " +
         pad_right(target, 10) + " " + pad_right(met, 4) + " " + pad_left(anchor, 10) + " " +
         pad_left(ratio, 7) + "  " + reference;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

double memory_gib() {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kib = 0.0;
  while (in >> name >> kib) {
    if (name == "MemTotal:") return kib / (1024.0 * 1024.0);
    in.ignore(256, '\n');
  }
  return 0.0;
}

nlohmann::ordered_json optional_number(std::optional<double> v) {
  return v && std::isfinite(*v) ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::vector<Row> evaluate(std::span<const Figure> figures, std::span<const Target> targets,
                          const AnchorSet* anchors, bool quick) {
  std::map<std::string, double, std::less<>> by_key;
  for (const Figure& f : figures) by_key.emplace(f.key, f.value);
  const FigureLookup lookup = [&](std::string_view key) -> std::optional<double> {
    const auto it = by_key.find(key);
    return it == by_key.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::vector<Row> rows;
  rows.reserve(figures.size());
  for (const Figure& f : figures) {
    Row row;
    row.figure = f;
    row.target = find_target(targets, f.key);
    if (row.target) row.verdict = judge(*row.target, f.value, lookup, quick);
    if (const Anchor* a = anchors ? anchors->find(f.key) : nullptr) {
      row.anchor = *a;
      if (a->unit == f.unit && a->value != 0.0 && std::isfinite(f.value))
        row.anchor_ratio = f.value / a->value;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

RunInfo describe_this_machine() {
  RunInfo info;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &utc);
  info.date = date;
  info.cpu = cpu_model();
  info.threads = std::thread::hardware_concurrency();
  info.memory_gib = memory_gib();
  info.build = MYRIAD_BUILD_TYPE;
  return info;
}

std::string table_header() {
  return join_columns("figure", "value", "unit", "target", "met", "anchor", "/anchor", "reference");
}

std::string table_line(const Row& row) {
  const Figure& f = row.figure;
  std::string target = kDash;
  if (row.target) {
    target = std::string(comparison_symbol(row.target->comparison)) + " " +
             (row.verdict.threshold ? format_value(*row.verdict.threshold) : std::string("?"));
  }
  const std::string met = row.verdict.met ? (*row.verdict.met ? "met" : "NOT") : kDash;
  const std::string anchor = row.anchor ? format_value(row.anchor->value) : kDash;
  const std::string ratio = row.anchor_ratio ? ratio_text(*row.anchor_ratio) : kDash;
  return join_columns(f.key, format_value(f.value), f.unit, target, met, anchor, ratio,
                      f.reference.empty() ? kDash : f.reference);
}

nlohmann::ordered_json to_json(std::span<const Row> rows, const RunInfo& run) {
  using Json = nlohmann::ordered_json;
  Json root = Json::object();
  root["format"] = "myriad-bench-results";
  root["version"] = 2;
  root["run"] = {{"date", run.date},
                 {"machine", {{"cpu", run.cpu}, {"threads", run.threads}, {"memory_gib", run.memory_gib}}},
                 {"build", run.build},
                 {"suites", run.suites},
                 {"repetitions", run.repetitions},
                 {"quick", run.quick},
                 {"anchors_file", run.anchors_file.empty() ? Json(nullptr) : Json(run.anchors_file)}};
  Json values = Json::object();
  Json figures = Json::array();
  for (const Row& row : rows) {
    const Figure& f = row.figure;
    values[f.key] = optional_number(f.value);
    Json entry = {{"key", f.key},
                  {"value", optional_number(f.value)},
                  {"unit", f.unit},
                  {"reference", f.reference.empty() ? Json(nullptr) : Json(f.reference)}};
    if (row.target) {
      const Target& t = *row.target;
      entry["target"] = {{"comparison", comparison_symbol(t.comparison, true)},
                         {"value", t.value},
                         {"relative_to", t.relative_to.empty() ? Json(nullptr) : Json(t.relative_to)},
                         {"threshold", optional_number(row.verdict.threshold)},
                         {"source", t.source},
                         {"met", row.verdict.met ? Json(*row.verdict.met) : Json(nullptr)}};
    } else {
      entry["target"] = nullptr;
    }
    if (row.anchor) {
      const Anchor& a = *row.anchor;
      entry["anchor"] = {{"value", a.value},
                         {"unit", a.unit},
                         {"date", a.date},
                         {"machine", a.machine},
                         {"command", a.command},
                         {"note", a.note},
                         {"ratio", optional_number(row.anchor_ratio)}};
    } else {
      entry["anchor"] = nullptr;
    }
    figures.push_back(std::move(entry));
  }
  root["values"] = std::move(values);
  root["figures"] = std::move(figures);
  return root;
}

}  // namespace myriad::bench
