// Checks shared by the `myriad` commands' numeric options, and the library's own checks of the options
// a command fills in, reported under the command-line option that set the field.
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad::app {

// A library options field ("VatOptions::fps") and the command-line option that sets it ("--fps").
struct FieldFlag {
  const char* field;
  const char* flag;
};

// Runs `options.validate()` (the library's one check of its options struct): an error naming one of
// `flags`' fields is thrown again naming its command-line option instead, so the user reads which option
// to change; other fields keep their own name.
template <class Options>
void validate_options(const Options& options, std::initializer_list<FieldFlag> flags) {
  try {
    options.validate();
  } catch (const Error& e) {
    for (const FieldFlag& f : flags)
      if (e.where() == f.field) throw Error(e.problem(), f.flag, e.hint());
    throw;
  }
}

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
