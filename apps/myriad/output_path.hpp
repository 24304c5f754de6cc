// Output paths of the `myriad` commands are checked before any long work starts, so a typo in a path
// costs a one-line message instead of a finished bake that cannot be written.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "myriad/core/error.hpp"

namespace myriad::app {

// Creates `dir` (and its parents) when missing; throws myriad::Error naming `option` when the path
// is empty, is a file, or cannot be created.
inline void prepare_output_folder(const std::filesystem::path& dir, const std::string& option) {
  if (dir.empty()) throw Error("no output folder given", option);
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status))
      throw Error("'" + dir.string() + "' is a file, not a folder", option, "name a folder");
    return;
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create folder '" + dir.string() + "': " + ec.message(), option);
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
