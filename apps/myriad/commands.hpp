// The `myriad` subcommands: each registers its options on the CLI11 app and returns what to run
// when it was chosen on the command line.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace myriad::app {

struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Command add_info_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_render_command(CLI::App& app);
Command add_veg_command(CLI::App& app);
Command add_crowd_command(CLI::App& app);
Command add_view_command(CLI::App& app);
Command add_avatars_command(CLI::App& app);
Command add_export_command(CLI::App& app);
Command add_voxel_command(CLI::App& app);

}  // namespace myriad::app
