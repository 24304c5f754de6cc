// Where the shared sample models live: $MYRIAD_ASSETS when set, else ../shared/assets from the working
// directory (the layout the README's commands run in), else shared/assets beside the source tree the
// program was built from (found from the executable's path). Programs that use a sample model say
// what they fall back to when it is missing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace myriad {

// The first existing regular file named `file` in the places above.
std::optional<std::filesystem::path> find_shared_asset(const std::string& file);

// The folder searched first ($MYRIAD_ASSETS or ../shared/assets), for messages.
std::filesystem::path shared_assets_dir();

}  // namespace myriad
