// `myriad bench [suite...]`: runs the registered benchmark suites and prints each figure beside its
// target (met / not met) and its recorded anchor (value / anchor); optionally writes the whole run as
// JSON and a chart picture (docs/BENCHMARKS.md describes both).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "chart.hpp"
#include "commands.hpp"
#include "evaluation.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "output_path.hpp"
#include "suite.hpp"

namespace myriad::app {
namespace {

namespace fs = std::filesystem;

struct BenchOptions {
  std::vector<std::string> suites;
  std::string json_path;
  std::string chart_path;
  std::string out_dir;
  std::string anchors_path;
  std::string frames_csv;
  bool no_anchors = false;
  int repetitions = 5;
  bool quick = false;
  bool list = false;
};

constexpr int kMaxRepetitions = 1000;

std::vector<const bench::Suite*> choose_suites(const std::vector<bench::Suite>& all,
                                               const std::vector<std::string>& names) {
  std::vector<const bench::Suite*> chosen;
  for (const std::string& name : names) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const bench::Suite& s) { return name == s.name; });
    if (it == all.end()) {
      std::string known;
      for (const auto& s : all) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw Error("unknown benchmark suite '" + name + "'", "myriad bench", "available suites: " + known);
    }
    if (std::find(chosen.begin(), chosen.end(), &*it) == chosen.end()) chosen.push_back(&*it);
  }
  if (chosen.empty()) {
    for (const auto& s : all) chosen.push_back(&s);
  }
  return chosen;
}

// --out DIR names bench.json and bench.png in DIR; --json FILE alone puts the chart next to it.
void resolve_outputs(BenchOptions& o) {
  if (!o.out_dir.empty()) {
    prepare_output_folder(o.out_dir, "--out");
    if (o.json_path.empty()) o.json_path = (fs::path(o.out_dir) / "bench.json").string();
    if (o.chart_path.empty()) o.chart_path = (fs::path(o.out_dir) / "bench.png").string();
  }
  if (!o.json_path.empty() && o.chart_path.empty()) {
    o.chart_path = fs::path(o.json_path).replace_extension(".png").string();
  }
  if (!o.json_path.empty() && o.json_path == o.chart_path)
    throw Error("the JSON and the chart would be the same file '" + o.json_path + "'", "--json/--chart");
  if (!o.json_path.empty()) prepare_output_file(o.json_path, "--json");
  if (!o.chart_path.empty()) prepare_output_file(o.chart_path, "--chart");
  if (!o.frames_csv.empty()) prepare_output_file(o.frames_csv, "--frames-csv");
}

std::optional<bench::AnchorSet> read_anchors(const BenchOptions& o, std::string& used_path) {
  if (o.no_anchors) return std::nullopt;
  if (!o.anchors_path.empty()) {
    used_path = o.anchors_path;
    return bench::load_anchors(o.anchors_path);
  }
  const fs::path path = bench::default_anchors_path();
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::fprintf(stderr, "myriad bench: no anchors file (%s); the anchor columns show \xE2\x80\x94\n",
                 path.string().c_str());
    return std::nullopt;
  }
  used_path = path.string();
  return bench::load_anchors(path);
}

std::string chart_title(const bench::RunInfo& run) {
  std::string suites;
  for (const std::string& s : run.suites) suites += (suites.empty() ? "" : " ") + s;
  return "myriad bench " + suites + (run.quick ? " --quick" : "") + "   " + run.date + "   " + run.cpu +
         ", " + std::to_string(run.threads) + " threads";
}

int run_bench(BenchOptions options) {
  const std::vector<bench::Suite> all = bench::all_suites();
  if (options.list) {
    for (const auto& s : all) std::printf("%-14s %s\n", s.name, s.description);
    return 0;
  }
  const std::vector<const bench::Suite*> chosen = choose_suites(all, options.suites);
  if (options.repetitions < 1 || options.repetitions > kMaxRepetitions)
    throw Error("must be in [1, " + std::to_string(kMaxRepetitions) + "]", "--repetitions");
  resolve_outputs(options);
  bench::RunInfo run = bench::describe_this_machine();
  const std::optional<bench::AnchorSet> anchors = read_anchors(options, run.anchors_file);
  run.repetitions = options.repetitions;
  run.quick = options.quick;
  for (const bench::Suite* s : chosen) run.suites.emplace_back(s->name);

  std::printf(
      "machine: %s, %u threads, %.1f GiB; build %s; anchors: %s%s\n", run.cpu.c_str(), run.threads,
      run.memory_gib, run.build.c_str(), run.anchors_file.empty() ? "none" : run.anchors_file.c_str(),
      options.quick ? "\n--quick: smaller inputs; ratios to full-run anchors are indicative only" : "");
  std::printf("%s\n", bench::table_header().c_str());
  bench::SuiteOptions suite_options;
  suite_options.repetitions = options.repetitions;
  suite_options.quick = options.quick;
  suite_options.frames_csv = options.frames_csv;
  std::vector<bench::Row> rows;
  for (const bench::Suite* suite : chosen) {
    bench::Report report(suite->name);
    suite->run(report, suite_options);
    // Relative targets refer to figures of the same suite, so each suite is judged on its own.
    for (bench::Row& row : bench::evaluate(report.figures(), bench::reference_targets(),
                                           anchors ? &*anchors : nullptr, options.quick)) {
      std::printf("%s\n", bench::table_line(row).c_str());
      rows.push_back(std::move(row));
    }
    std::fflush(stdout);
  }
  int met = 0, missed = 0;
  for (const bench::Row& row : rows) {
    if (row.verdict.met) ++(*row.verdict.met ? met : missed);
  }
  std::printf("targets: %d met, %d not met\n", met, missed);
  if (!options.json_path.empty()) {
    const std::string text = bench::to_json(rows, run).dump(2) + "\n";
    write_file_atomic(options.json_path, std::as_bytes(std::span(text.data(), text.size())));
    std::printf("wrote %s\n", options.json_path.c_str());
  }
  if (!options.chart_path.empty()) {
    const bench::ChartImage chart = bench::draw_chart(bench::chart_bars(rows), chart_title(run));
    write_png_rgba8(options.chart_path, std::uint32_t(chart.layout.width), std::uint32_t(chart.layout.height),
                    chart.rgba);
    std::printf("wrote %s\n", options.chart_path.c_str());
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("bench", "Run benchmark suites (all when none is named)");
  sub->add_option("suites", options->suites, "Suites to run (see --list)");
  sub->add_option("--json", options->json_path,
                  "Write the run (figures, targets, anchors, machine) as JSON to this file; the chart goes "
                  "next to it as .png unless --chart names another file");
  sub->add_option("--chart", options->chart_path, "Draw the chart picture (PNG) to this file");
  sub->add_option("--out", options->out_dir, "Write bench.json and bench.png into this folder");
  sub->add_option("--anchors", options->anchors_path,
                  "Recorded anchors to compare with (default: docs/benchmark_anchors.json)");
  sub->add_flag("--no-anchors", options->no_anchors, "Compare with no recorded anchors");
  sub->add_option("--frames-csv", options->frames_csv,
                  "Streaming flights (voxel-stream) write one row per frame to this CSV file: CPU time, its "
                  "parts and the frame's work");
  sub->add_option("--repetitions", options->repetitions, "Measurements per figure; the median is reported");
  sub->add_flag("--quick", options->quick, "Smaller inputs (smoke runs)");
  sub->add_flag("--list", options->list, "List the suites");
  return {sub, [options] { return run_bench(*options); }};
}

}  // namespace myriad::app
