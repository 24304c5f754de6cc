// myriad::Error: the one exception type Myriad throws at its edges (files, models, parameters, devices).
// It carries what went wrong, where (file, offset, field) and what to do about it, so a message
// printed by a tool is enough for a user to act on. Hot loops never throw.
#pragma once

#include <stdexcept>
#include <string>

namespace myriad {

class Error : public std::runtime_error {
 public:
  // `what`: the problem; `where`: file/offset/field/parameter it concerns (may be empty);
  // `hint`: what the user can do (may be empty). The full message joins all three.
  explicit Error(std::string what, std::string where = {}, std::string hint = {});

  const std::string& problem() const noexcept { return problem_; }
  const std::string& where() const noexcept { return where_; }
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string problem_;
  std::string where_;
  std::string hint_;
};

}  // namespace myriad
