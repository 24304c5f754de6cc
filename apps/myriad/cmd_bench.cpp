// `myriad bench [suite...]`: runs the registered benchmark suites, prints a table and optionally
// writes one flat JSON object of figures ("<suite>.<figure>_<unit>": value).
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "myriad/core/binary_io.hpp"
#include "myriad/core/error.hpp"
#include "suite.hpp"

namespace myriad::app {
namespace {

struct BenchOptions {
  std::vector<std::string> suites;
  std::string json_path;
  int repetitions = 5;
  bool quick = false;
  bool list = false;
};

int run_bench(const BenchOptions& options) {
  const std::vector<bench::Suite> all = bench::all_suites();
  if (options.list) {
    for (const auto& s : all) std::printf("%-14s %s\n", s.name, s.description);
    return 0;
  }
  std::vector<const bench::Suite*> chosen;
  for (const std::string& name : options.suites) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const bench::Suite& s) { return name == s.name; });
    if (it == all.end()) {
      std::string names;
      for (const auto& s : all) names += (names.empty() ? "" : ", ") + std::string(s.name);
      throw Error("unknown benchmark suite '" + name + "'", "myriad bench", "available suites: " + names);
    }
    chosen.push_back(&*it);
  }
  if (chosen.empty()) {
    for (const auto& s : all) chosen.push_back(&s);
  }
  if (options.repetitions < 1) throw Error("--repetitions must be at least 1", "myriad bench");

  bench::SuiteOptions suite_options;
  suite_options.repetitions = options.repetitions;
  suite_options.quick = options.quick;
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  std::printf("%-44s %16s  %-6s %s\n", "figure", "value", "unit", "reference");
  for (const bench::Suite* suite : chosen) {
    bench::Report report(suite->name);
    suite->run(report, suite_options);
    for (const bench::Figure& f : report.figures()) {
      std::printf("%-44s %16.4g  %-6s %s\n", f.key.c_str(), f.value, f.unit.c_str(), f.reference.c_str());
      json[f.key] = f.value;
    }
    std::fflush(stdout);
  }
  if (!options.json_path.empty()) {
    const std::string text = json.dump(2) + "\n";
    write_file_atomic(options.json_path, std::as_bytes(std::span(text.data(), text.size())));
    std::printf("wrote %s\n", options.json_path.c_str());
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("bench", "Run benchmark suites (all when none is named)");
  sub->add_option("suites", options->suites, "Suites to run (see --list)");
  sub->add_option("--json", options->json_path, "Write the figures as one flat JSON object to this file");
  sub->add_option("--repetitions", options->repetitions, "Measurements per figure; the median is reported");
  sub->add_flag("--quick", options->quick, "Smaller inputs (smoke runs)");
  sub->add_flag("--list", options->list, "List the suites");
  return {sub, [options] { return run_bench(*options); }};
}

}  // namespace myriad::app
