// SPDX-License-Identifier: GPL-3.0-or-later
// Reads the marked code blocks of docs/rule-authoring.md, so tests follow the guide exactly as written:
// `<!-- guide-file: PATH -->`, `<!-- guide-bundle: NAME -->` and `<!-- guide-expect -->`, each followed by a
// fenced block.
#pragma once

#include "test_catalog.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace attrib::tests {

struct GuideBlock {
    std::string kind;  ///< "file", "bundle" or "expect"
    std::string name;  ///< path relative to the rules folder, or bundle file name
    std::string text;
};

inline std::string guidePath()
{
    return std::string(ATTRIB_SOURCE_DIR) + "/docs/rule-authoring.md";
}

inline std::vector<GuideBlock> guideBlocks()
{
    std::ifstream in(guidePath());
    std::vector<GuideBlock> blocks;
    std::string line;
    GuideBlock pending;
    bool waiting = false, inside = false;
    const std::string marker = "<!-- guide-";
    while (std::getline(in, line)) {
        if (inside) {
            if (line.rfind("```", 0) == 0) {
                blocks.push_back(pending);
                inside = waiting = false;
            } else {
                pending.text += line + "\n";
            }
        } else if (line.rfind(marker, 0) == 0) {
            const std::string body = line.substr(marker.size(), line.find("-->") - marker.size());
            const auto colon = body.find(':');
            pending = {};
            pending.kind = body.substr(0, colon == std::string::npos ? body.find(' ') : colon);
            if (colon != std::string::npos) {
                pending.name = body.substr(colon + 1);
                pending.name.erase(0, pending.name.find_first_not_of(' '));
                pending.name.erase(pending.name.find_last_not_of(' ') + 1);
            }
            waiting = true;
        } else if (waiting && line.rfind("```", 0) == 0) {
            inside = true;
        }
    }
    return blocks;
}

/// Copies a rules folder (recursively) to `to`.
inline void copyCatalog(const std::filesystem::path& from, const std::filesystem::path& to)
{
    std::filesystem::create_directories(to);
    std::filesystem::copy(from, to,
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
}

/// Writes the guide's blocks of one kind under `dir`; returns how many were written.
inline int writeGuideBlocks(const std::vector<GuideBlock>& blocks, const std::string& kind,
                            const std::filesystem::path& dir)
{
    int n = 0;
    for (const auto& b : blocks)
        if (b.kind == kind) {
            writeFile(dir / b.name, b.text);
            ++n;
        }
    return n;
}

}  // namespace attrib::tests
