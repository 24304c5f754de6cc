// Checks shared by the `myriad` commands' numeric options.
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace myriad::app {

// Unsigned options: CLI11 would wrap "-1" around to the largest value instead of refusing it.
inline const CLI::Validator not_negative(
    [](std::string& text) {
      return text.rfind('-', 0) == 0 ? std::string("must not be negative") : std::string();
    },
    "NONNEGATIVE");

// Floating-point options: CLI::Range lets "nan" through (every comparison with NaN is false).
inline const CLI::Validator finite_number(
    [](std::string& text) {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      return end != text.c_str() && *end == '\0' && std::isfinite(value)
                 ? std::string()
                 : std::string("must be a finite number");
    },
    "FINITE");

}  // namespace myriad::app
