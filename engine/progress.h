// SPDX-License-Identifier: GPL-3.0-or-later
// How the engine talks outward while it works: progress by stage, and cancellation.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace attrib::engine {

/// Receives progress: a stage name plus done and total units (bytes, files or steps).
class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    virtual void progress(const std::string& stage, std::uint64_t done, std::uint64_t total) = 0;
};

/// Set by a front end to stop an analysis; the engine polls it between lines and phases.
using CancelFlag = std::atomic<bool>;

}  // namespace attrib::engine
