// SPDX-License-Identifier: GPL-3.0-or-later
// What the evidence view needs from the bundle on disk. Views own this interface; app/ implements it
// (line-offset index built lazily in the background, lines read by offset), tests fake it in memory.
#pragma once

#include "engine/model.h"

#include <QFuture>
#include <QList>
#include <QObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QVector>

namespace attrib::views {

/// A span of a line that a rule matched, in UTF-16 units of the text it was computed on.
struct TextSpan {
    int start = 0;
    int length = 0;
    bool capture = false;  ///< a named capture inside the match (stronger highlight)
};

/// What a find or filter looks for: text or a regular expression, with or without case, kept or left out.
struct LineQuery {
    QString text;
    bool regex = false;
    Qt::CaseSensitivity cs = Qt::CaseInsensitive;
    bool invert = false;  ///< filter out: lines that do NOT match

    bool isEmpty() const { return text.isEmpty(); }
    bool operator==(const LineQuery&) const = default;
};

/// A LineQuery compiled once, for scanning many lines.
class LineMatcher {
public:
    explicit LineMatcher(LineQuery query);
    /// False for an invalid regular expression (`error()` says why).
    bool isValid() const { return !m_query.regex || m_re.isValid(); }
    QString error() const { return m_re.errorString(); }
    /// Whether a line passes (honours `invert`). An invalid expression passes nothing; an empty query everything.
    bool accepts(const QString& line) const;
    /// Whether the query occurs in the line (ignores `invert`).
    bool hits(const QString& line) const;
    /// Spans (start, length) of `line` that the query matches (ignores `invert`), for highlighting.
    QList<QPair<int, int>> matches(const QString& line) const;
    const LineQuery& query() const { return m_query; }

private:
    LineQuery m_query;
    QRegularExpression m_re;
};

/// Lines of one bundle file known so far.
struct LineCount {
    qint64 lines = 0;       ///< lines indexed so far
    bool complete = false;  ///< the whole file has been indexed
    bool available = true;  ///< false when the file cannot be re-read (archive member, vanished, ...)
    QString problem;        ///< why not available
};

class EvidenceSource : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    virtual int fileCount() const = 0;
    /// Path relative to the bundle root.
    virtual QString filePath(int file) const = 0;
    /// Starts indexing on first use; `lineCountChanged` reports progress.
    virtual LineCount lineCount(int file) = 0;
    /// Lines [first, first + count) (0-based), decoded as UTF-8. May return fewer near the indexed end.
    virtual QStringList readLines(int file, qint64 first, qint64 count) = 0;
    /// One record read by byte offset (no index needed). Empty when the file cannot be read.
    virtual QString readRecord(int file, quint64 offset, quint32 length) = 0;
    /// Spans of `text` that the extractor rules for `kind` match.
    virtual QList<TextSpan> matchSpans(engine::SourceKind kind, const QString& text) const = 0;
    /// Streams the 0-based numbers of lines that `query` accepts, in order, as batches (one result per
    /// batch). Cancel the future to stop.
    virtual QFuture<QVector<qint64>> findLines(int file, const LineQuery& query) = 0;

Q_SIGNALS:
    void lineCountChanged(int file);
};

}  // namespace attrib::views
