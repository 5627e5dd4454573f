// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: a log platform's CSV export (CloudWatch Logs Insights `@timestamp,@message`, Datadog `Date,Host,Service,
// Message`, Kibana `"@timestamp","host.name",message`, Azure Log Analytics `TimeGenerated [UTC],Computer,...`).
// Each row is one record of the platform: its message column is what the job printed (quoted, possibly over
// several physical lines), its time and host columns stand for lines that carry none of their own.
#pragma once

#include "importers/log_envelope.h"

#include <string>
#include <string_view>

namespace attrib::importers::detail {

/// Whether a CSV header names a message column: the file is a log export, not a metrics table.
bool isLogExportHeader(std::string_view header);

/// Reads the rows of a log export one physical line at a time.
class LogExportRows {
public:
    /// The header line; false when it names no message column (the rows are then not read as records).
    bool takeHeader(std::string_view header);
    /// One physical line after the header. True when it completes a row: `out` then holds the row's message lines
    /// (the whole row's text when it has no message cell), time and host. A quoted cell left open continues on the
    /// next line (up to `maxLines` lines, `maxBytes` bytes); a blank line between rows is no row.
    bool add(std::string_view line, Envelope& out, std::size_t maxLines, std::size_t maxBytes);
    /// Physical lines of the row being read (1 for a row of one line).
    std::size_t rowLines() const { return m_lines; }
    /// A row is being read: the last line left a quoted cell open.
    bool open() const { return m_open; }

private:
    void complete(Envelope& out) const;

    int m_message = -1;
    int m_time = -1;
    int m_host = -1;
    std::string m_row;        ///< the row read so far (physical lines joined with `\n`)
    std::size_t m_lines = 0;  ///< physical lines in m_row
    bool m_open = false;      ///< m_row ends inside a quoted cell
};

}  // namespace attrib::importers::detail
