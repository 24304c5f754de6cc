// What tests of options and inputs check: the field a myriad::Error names.
#pragma once

#include <string>
#include <utility>

#include "myriad/core/io/error.hpp"

namespace myriad::test {

// Error::where() of the myriad::Error that `f` throws; empty when it returns (any other exception passes
// through and fails the test).
template <class F>
std::string where_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return e.where();
  }
  return "";
}

}  // namespace myriad::test
