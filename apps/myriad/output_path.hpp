// Output paths of the `myriad` commands are checked before any long work starts, so a typo in a path
// or a folder that cannot be written costs a one-line message instead of a finished bake that cannot
// be written.
#pragma once

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

#include "myriad/core/io/error.hpp"

namespace myriad::app {

// Creates and removes a probe file in `dir`: a folder that exists but cannot be written (permissions,
// a read-only file system) is refused before any work starts instead of after it.
inline void check_folder_writable(const std::filesystem::path& dir, const std::string& option) {
  const std::filesystem::path probe = dir / (".myriad-write-probe-" + std::to_string(::getpid()));
  std::FILE* file = std::fopen(probe.c_str(), "wb");
  if (!file) {
    const int err = errno;
    throw Error("cannot write in folder '" + dir.string() + "': " + std::generic_category().message(err),
                option, "choose a folder you can write to");
  }
  std::fclose(file);
  std::error_code ignored;
  std::filesystem::remove(probe, ignored);
}

// Creates `dir` (and its parents) when missing; throws myriad::Error naming `option` when the path
// is empty, is a file, cannot be created or cannot be written.
inline void prepare_output_folder(const std::filesystem::path& dir, const std::string& option) {
  if (dir.empty()) throw Error("no output folder given", option);
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status))
      throw Error("'" + dir.string() + "' is a file, not a folder", option, "name a folder");
  } else {
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create folder '" + dir.string() + "': " + ec.message(), option);
  }
  check_folder_writable(dir, option);
}

// Makes sure the folder of output file `path` exists and that `path` is not itself a folder.
inline void prepare_output_file(const std::filesystem::path& path, const std::string& option) {
  if (path.empty() || !path.has_filename()) throw Error("no output file name given", option);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("'" + path.string() + "' is a folder", option, "name a file");
  prepare_output_folder(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."), option);
}

}  // namespace myriad::app
