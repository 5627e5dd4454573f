// SPDX-License-Identifier: GPL-3.0-or-later
// A sparse line-offset index of one file, built in the background: the byte offset of every 64th line.
// Memory stays at 8 bytes per 64 lines (about 2 MB for a 2 GB log); lines are found by reading forward
// from the nearest checkpoint.
#pragma once

#include "importers/line_reader.h"

#include <QFuture>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

class QThreadPool;

namespace attrib::app {

class LineIndex {
public:
    static constexpr std::int64_t Stride = 64;

    /// Opens the file's (decompressed) content from its start; sets the error text when it cannot.
    using Opener = std::function<importers::ReadFn(std::string& error)>;

    explicit LineIndex(Opener open);
    ~LineIndex();
    LineIndex(const LineIndex&) = delete;
    LineIndex& operator=(const LineIndex&) = delete;

    /// Starts the scan on `pool`; `onProgress` is called from the worker (throttled) and at the end.
    void start(QThreadPool* pool, std::function<void()> onProgress);
    /// Stops the scan and waits for the worker.
    void stop();

    struct State {
        std::int64_t lines = 0;
        bool complete = false;
        std::string error;
    };
    State state() const;
    /// The checkpoint at or before 0-based `line`: its byte offset and line. False if `line` is not indexed.
    bool locate(std::int64_t line, std::uint64_t& offset, std::int64_t& checkpointLine) const;

private:
    void run(const std::function<void()>& onProgress);

    Opener m_open;
    mutable std::mutex m_mutex;
    std::vector<std::uint64_t> m_checkpoints;
    std::int64_t m_lines = 0;
    bool m_complete = false;
    std::string m_error;
    std::atomic<bool> m_stop{false};
    QFuture<void> m_future;
};

}  // namespace attrib::app
