// myriad: bake, render, bench and inspect — the command-line face of the library.
#include <cstdio>
#include <exception>
#include <vector>

#include "commands.hpp"
#include "myriad/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"myriad: draws very many things on modest GPUs (Vulkan 1.3)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "myriad 0.1.0");
  std::vector<myriad::app::Command> commands{myriad::app::add_info_command(app),
                                             myriad::app::add_bench_command(app),
                                             myriad::app::add_render_command(app)};
#ifdef MYRIAD_HAS_VEGETATION
  commands.push_back(myriad::app::add_veg_command(app));
#endif
#ifdef MYRIAD_HAS_CROWD
  commands.push_back(myriad::app::add_crowd_command(app));
#endif
#ifdef MYRIAD_HAS_VIEW
  commands.push_back(myriad::app::add_view_command(app));
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (const auto& command : commands) {
      if (command.sub->parsed()) return command.run();
    }
    return 0;
  } catch (const myriad::Error& e) {
    std::fprintf(stderr, "myriad: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "myriad: unexpected error: %s\n", e.what());
    return 2;
  }
}
