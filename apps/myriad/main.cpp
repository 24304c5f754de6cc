// myriad: bake, render, bench and inspect — the command-line face of the library.
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/version.hpp"

namespace {

// Every error is printed as one line: messages that carry a parser's own lines (tinygltf joins its
// errors and warnings with newlines) are folded, each line break becoming "; " (a space before the
// "[where]" part of myriad::Error).
std::string one_line(const std::string& text) {
  std::string out;
  bool pending_break = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      pending_break = true;
      continue;
    }
    if (pending_break && (c == ' ' || c == '\t')) continue;           // indentation of the folded line
    if (pending_break && !out.empty()) out += c == '[' ? " " : "; ";  // "[where]" stays on its line
    pending_break = false;
    out += c == '\t' ? ' ' : c;
  }
  return out;
}

void print_error(const char* kind, const std::string& message) {
  std::fprintf(stderr, "myriad: %s: %s\n", kind, one_line(message).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) would kill the process with SIGXFSZ in the middle of a write; ignored,
  // the write fails with EFBIG instead and the writer reports it (removing its temporary file).
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"myriad: draws very many things on modest GPUs (Vulkan 1.3)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "myriad " MYRIAD_VERSION_STRING);
  std::vector<myriad::app::Command> commands{
      myriad::app::add_info_command(app), myriad::app::add_bench_command(app),
      myriad::app::add_render_command(app), myriad::app::add_avatars_command(app)};
#ifdef MYRIAD_HAS_VEGETATION
  commands.push_back(myriad::app::add_veg_command(app));
#endif
#ifdef MYRIAD_HAS_CROWD
  commands.push_back(myriad::app::add_crowd_command(app));
#endif
#ifdef MYRIAD_HAS_VIEW
  commands.push_back(myriad::app::add_view_command(app));
#endif
#ifdef MYRIAD_HAS_VOXEL
  commands.push_back(myriad::app::add_voxel_command(app));
#endif
#ifdef MYRIAD_HAS_EXPORT
  commands.push_back(myriad::app::add_export_command(app));
#endif
  // CLI11 would only say "A subcommand is required" for a mistyped command: name it and the commands.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->check_name(word);
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "myriad: error: unknown command '%s' \xE2\x80\x94 commands: %s\n", word.c_str(),
                   names.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11's message names the option; printed on one line like every other error. Its own exit
    // codes (100+) are folded into 2, the usual code for a usage error, so scripts can tell bad
    // arguments from a crash (128+).
    print_error("error", std::string(e.what()) + " \xE2\x80\x94 see --help");
    return 2;
  }
  try {
    for (const auto& command : commands) {
      if (command.sub->parsed()) return command.run();
    }
    return 0;
  } catch (const myriad::Error& e) {
    print_error("error", e.what());
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    print_error("error", e.what());  // names the path(s) and the system's reason
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "myriad: error: out of memory \xE2\x80\x94 try smaller sizes or counts\n");
    return 1;
  } catch (const std::exception& e) {
    print_error("unexpected error", e.what());
    return 2;
  } catch (...) {
    std::fprintf(stderr, "myriad: unexpected error of unknown type\n");
    return 2;
  }
}
