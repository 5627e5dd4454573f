// SPDX-License-Identifier: GPL-3.0-or-later
// A generated bundle of plain log files for the search index tests and benchmark: `files` files with
// `linesPerFile` lines each of NCCL / kernel / training noise, and one needle line at a known place.
#pragma once

#include "engine/verdict.h"

#include <filesystem>
#include <fstream>
#include <string>

namespace attrib::store::testing {

inline constexpr char Needle[] = "NVRM: Xid (PCI:0018:01:00): 149, pid=4242, name=python, needle-7f3a";

struct GeneratedBundle {
    engine::AnalysisResult result;  ///< only files, fileCoverage and bundlePath are set
    std::uint64_t bytes = 0;
    std::size_t needleFile = 0;
    std::uint64_t needleLine = 0;
};

inline std::string noiseLine(std::uint64_t i)
{
    switch (i % 4) {
    case 0:
        return "2026-04-22T21:34:" + std::to_string(10 + i % 50) + ".118251Z node-0" + std::to_string(i % 8) +
            " train step=" + std::to_string(i) + " loss=" + std::to_string(1.0 / double(i + 1)) + " lr=3e-4";
    case 1:
        return "node-0" + std::to_string(i % 8) + ":" + std::to_string(1000 + i % 64) + ":" + std::to_string(i % 7) +
            " [" + std::to_string(i % 8) + "] NCCL INFO Channel " + std::to_string(i % 32) +
            "/32 : 0[0] -> 1[1] via P2P/IPC";
    case 2:
        return "[" + std::to_string(i / 1000) + "." + std::to_string(i % 1000) + "] mlx5_core 0000:0" +
            std::to_string(i % 9) + ":00.0: mlx5_fw_tracer_handle_traces:743: FW tracer event";
    default: return "dataloader worker " + std::to_string(i % 16) + " fetched batch " + std::to_string(i);
    }
}

inline GeneratedBundle generateBundle(const std::filesystem::path& dir, std::size_t files, std::uint64_t linesPerFile)
{
    GeneratedBundle g;
    g.result.bundlePath = dir.string();
    g.needleFile = files - 1;
    g.needleLine = linesPerFile * 7 / 9 + 1;
    std::filesystem::create_directories(dir / "logs");
    for (std::size_t f = 0; f < files; ++f) {
        const std::string rel = "logs/node-0" + std::to_string(f) + ".log";
        std::ofstream out(dir / rel, std::ios::binary);
        std::string buffer;
        for (std::uint64_t line = 1; line <= linesPerFile; ++line) {
            buffer += (f == g.needleFile && line == g.needleLine) ? std::string(Needle) : noiseLine(line * 31 + f);
            buffer += '\n';
            if (buffer.size() > (1 << 20)) {
                out << buffer;
                g.bytes += buffer.size();
                buffer.clear();
            }
        }
        out << buffer;
        g.bytes += buffer.size();
        out.close();
        const auto size = std::filesystem::file_size(dir / rel);
        g.result.files.push_back({rel, (dir / rel).string(), {}, size});
        engine::FileCoverage cov;
        cov.path = rel;
        cov.node = "node-0" + std::to_string(f);
        g.result.fileCoverage.push_back(cov);
    }
    return g;
}

}  // namespace attrib::store::testing
