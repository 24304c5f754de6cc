#include "myriad/core/io/line_script.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include "myriad/core/io/error.hpp"

namespace myriad {

std::vector<ScriptLine> script_lines(std::string_view text, const std::string& source) {
  std::vector<ScriptLine> lines;
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    ScriptLine out;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      const std::size_t begin = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i > begin) out.words.push_back(line.substr(begin, i - begin));
    }
    if (out.words.empty()) continue;
    out.number = number;
    out.where = source + ":" + std::to_string(number);
    lines.push_back(std::move(out));
  }
  return lines;
}

std::string read_script_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the " + what, path.string(), "check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace myriad
