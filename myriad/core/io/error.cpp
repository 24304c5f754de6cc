// myriad::Error: joins problem, place and remedy into one readable message.
#include "myriad/core/io/error.hpp"

#include <utility>

namespace myriad {
namespace {

std::string join_message(const std::string& what, const std::string& where, const std::string& hint) {
  std::string message = what;
  if (!where.empty()) message += " [" + where + "]";
  if (!hint.empty()) message += " \xE2\x80\x94 " + hint;  // em dash
  return message;
}

}  // namespace

Error::Error(std::string what, std::string where, std::string hint)
    : std::runtime_error(join_message(what, where, hint)),
      problem_(std::move(what)),
      where_(std::move(where)),
      hint_(std::move(hint)) {}

}  // namespace myriad
