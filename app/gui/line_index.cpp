// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/line_index.h"

#include "importers/line_reader.h"

#include <QThreadPool>
#include <QtConcurrent>

#include <chrono>

namespace attrib::app {

namespace {

constexpr auto ProgressInterval = std::chrono::milliseconds(100);
constexpr std::int64_t FirstReportLines = 2000;  // report early so the first screen paints at once

}  // namespace

LineIndex::LineIndex(Opener open)
    : m_open(std::move(open))
{
}

LineIndex::~LineIndex()
{
    stop();
}

void LineIndex::start(QThreadPool* pool, std::function<void()> onProgress)
{
    m_future = QtConcurrent::run(pool, [this, onProgress = std::move(onProgress)] { run(onProgress); });
}

void LineIndex::stop()
{
    m_stop = true;
    m_future.waitForFinished();
}

LineIndex::State LineIndex::state() const
{
    const std::lock_guard lock(m_mutex);
    return {m_lines, m_complete, m_error};
}

bool LineIndex::locate(std::int64_t line, std::uint64_t& offset, std::int64_t& checkpointLine) const
{
    const std::lock_guard lock(m_mutex);
    if (line < 0 || line >= m_lines)
        return false;
    const auto k = static_cast<std::size_t>(line / Stride);
    if (k >= m_checkpoints.size())
        return false;
    offset = m_checkpoints[k];
    checkpointLine = static_cast<std::int64_t>(k) * Stride;
    return true;
}

void LineIndex::run(const std::function<void()>& onProgress)
{
    std::string error;
    const importers::ReadFn read = m_open(error);
    if (!read) {
        {
            const std::lock_guard lock(m_mutex);
            m_error = error;
            m_complete = true;
        }
        onProgress();
        return;
    }
    std::vector<std::uint64_t> pending;
    std::int64_t lines = 0;
    auto lastReport = std::chrono::steady_clock::now();
    bool reportedFirst = false;
    const auto publish = [&](bool complete) {
        const std::lock_guard lock(m_mutex);
        m_checkpoints.insert(m_checkpoints.end(), pending.begin(), pending.end());
        m_lines = lines;
        m_complete = complete;
        pending.clear();
    };
    const importers::ReadStats stats = importers::readLines(
        read,
        [&](const importers::RawLine& raw) {
            if (m_stop.load(std::memory_order_relaxed))
                return false;
            if (lines % Stride == 0)
                pending.push_back(raw.offset);
            ++lines;
            if ((lines & 0x3ff) == 0 || (!reportedFirst && lines == FirstReportLines)) {
                const auto now = std::chrono::steady_clock::now();
                if (!reportedFirst || now - lastReport >= ProgressInterval) {
                    reportedFirst = true;
                    lastReport = now;
                    publish(false);
                    onProgress();
                }
            }
            return true;
        },
        std::size_t{64} * 1024);
    publish(!m_stop);
    if (stats.error) {
        const std::lock_guard lock(m_mutex);
        m_error = stats.errorText;
    }
    onProgress();
}

}  // namespace attrib::app
