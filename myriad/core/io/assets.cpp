#include "myriad/core/io/assets.hpp"

#include <cstdlib>
#include <system_error>

namespace myriad {

std::filesystem::path shared_assets_dir() {
  if (const char* env = std::getenv("MYRIAD_ASSETS"); env && *env) return env;
  return std::filesystem::path("..") / "shared" / "assets";
}

std::optional<std::filesystem::path> find_shared_asset(const std::string& file) {
  std::error_code ec;
  const auto found = [&](const std::filesystem::path& p) { return std::filesystem::is_regular_file(p, ec); };
  if (const std::filesystem::path p = shared_assets_dir() / file; found(p)) return p;
  // From the executable up: build/apps/myriad -> <repo>/../shared/assets, whatever the working folder.
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (std::filesystem::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      if (const std::filesystem::path p = dir.parent_path() / "shared" / "assets" / file; found(p)) return p;
    }
  }
  return std::nullopt;
}

}  // namespace myriad
