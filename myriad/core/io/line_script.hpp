// Line scripts: plain text read line by line, '#' starting a comment, blank lines skipped, each line split
// into words at whitespace. The voxel edit scripts and the viewer's input scripts are such files; each
// gives the words their meaning and names "source:line" in its errors.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace myriad {

struct ScriptLine {
  int number = 0;                       // 1-based
  std::vector<std::string_view> words;  // views into the text given to script_lines
  std::string where;                    // "source:number", for errors
};

// The lines of `text` that hold words.
std::vector<ScriptLine> script_lines(std::string_view text, const std::string& source);

// The whole file as text; throws myriad::Error "cannot open the <what>" naming the path.
std::string read_script_file(const std::filesystem::path& path, const std::string& what);

}  // namespace myriad
