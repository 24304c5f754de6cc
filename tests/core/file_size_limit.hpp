// Test helper shared by the writer tests (core, crowd, vegetation): a disk that fills up in the middle
// of a file. For its lifetime the process's file-size limit (RLIMIT_FSIZE, what `ulimit -f` sets) is
// lowered and SIGXFSZ ignored, so a write past the limit fails with EFBIG instead of killing the
// process. ctest runs each test case in a process of its own; the limit is restored on scope exit.
#pragma once

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace myriad::test {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(std::size_t bytes) {
    ok_ = ::getrlimit(RLIMIT_FSIZE, &saved_) == 0;
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = saved_;
    lowered.rlim_cur = static_cast<rlim_t>(bytes);
    ok_ = ok_ && ::setrlimit(RLIMIT_FSIZE, &lowered) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool active() const { return ok_; }

 private:
  rlimit saved_{};
  void (*previous_)(int) = SIG_DFL;
  bool ok_ = false;
};

// The names of the entries in `dir`, sorted (to compare what a failed write left behind).
inline std::vector<std::string> folder_listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace myriad::test
