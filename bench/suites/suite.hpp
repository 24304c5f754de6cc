// The suites behind `myriad bench`: each module registers named figures measured on the machine at
// hand. Keys are flat and stable: "<suite>.<figure>_<unit>", e.g. "core.octa_pack_ns"; counts
// carry no unit suffix ("voxel.vertices"). Timings are medians of repeated runs.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace myriad::bench {

// The nearest-rank percentile `p` (0..1] of `v` (0 for an empty list): frame-time p50/p99 figures.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::ceil(p * double(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

struct Figure {
  std::string key;  // "<suite>.<figure>[_unit]"
  double value = 0.0;
  std::string unit;       // "ns", "ms", "us", "bytes", "" for counts, ...
  std::string reference;  // the article's or anchor's figure for comparison, free text; may be empty
};

struct SuiteOptions {
  int repetitions = 5;  // measurements per figure; the median is reported
  bool quick = false;   // smaller inputs, for CI smoke runs
  // The streaming flights (voxel-stream) write one CSV row per flown frame here: its CPU time, the parts
  // and the work it did (empty: none), so a tail can be read frame by frame.
  std::string frames_csv;
};

class Report {
 public:
  explicit Report(std::string suite) : suite_(std::move(suite)) {}
  // `name` is the figure name with its unit suffix, e.g. "octa_pack_ns".
  void add(const std::string& name, double value, std::string unit, std::string reference = {}) {
    figures_.push_back({suite_ + "." + name, value, std::move(unit), std::move(reference)});
  }
  const std::string& suite() const { return suite_; }
  const std::vector<Figure>& figures() const { return figures_; }

 private:
  std::string suite_;
  std::vector<Figure> figures_;
};

using SuiteFn = void (*)(Report&, const SuiteOptions&);

struct Suite {
  const char* name;
  const char* description;
  SuiteFn run;
};

// Each module's suite file defines one of these; all_suites() (suites.cpp) lists them in order.
void run_core_suite(Report& report, const SuiteOptions& options);
void run_voxel_suite(Report& report, const SuiteOptions& options);
void run_voxel_gpu_suite(Report& report, const SuiteOptions& options);
void run_batch_suite(Report& report, const SuiteOptions& options);
void run_vegetation_suite(Report& report, const SuiteOptions& options);

std::vector<Suite> all_suites();

}  // namespace myriad::bench
