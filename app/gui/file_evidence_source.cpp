// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/file_evidence_source.h"

#include "engine/extractor.h"
#include "engine/lazy_regex.h"
#include "importers/archive.h"
#include "importers/bundle_access.h"
#include "importers/file_open.h"
#include "importers/line_reader.h"
#include "importers/utf16_text.h"

#include <QFile>
#include <QtConcurrent>

#include <re2/re2.h>

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace attrib::app {

namespace {

constexpr std::size_t DisplayLineCap = std::size_t{64} * 1024;  // bytes of one line shown; the rest is noted
constexpr quint32 RecordCap = 64 * 1024;
constexpr qint64 StreamBlockLines = 2048;  // lines decoded per decompression pass of a compressed file

QString decode(const importers::RawLine& raw)
{
    QString text = QString::fromUtf8(raw.bytes.data(), static_cast<qsizetype>(raw.bytes.size()));
    if (raw.truncated)
        text += QStringLiteral(" \u2026 [line of %1 bytes cut]").arg(raw.fullLength);
    return text;
}

/// A reader over a descriptor positioned at `offset`.
importers::ReadFn readerAt(const std::string& path, std::uint64_t offset)
{
    // Never blocks on a file that became a FIFO or device since the analysis listed it (lseek then fails).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0)
        return {};
    auto holder = std::shared_ptr<int>(new int(fd), [](int* p) {
        ::close(*p);
        delete p;
    });
    if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0)
        return {};
    return [holder](char* buffer, std::size_t capacity) -> long {
        for (;;) {
            const ssize_t got = ::read(*holder, buffer, capacity);
            if (got < 0 && errno == EINTR)
                continue;
            return static_cast<long>(got);
        }
    };
}

/// `inner` with its first `offset` bytes read and dropped (streams that cannot seek).
importers::ReadFn skipping(importers::ReadFn inner, std::uint64_t offset)
{
    auto left = std::make_shared<std::uint64_t>(offset);
    return [inner = std::move(inner), left](char* buffer, std::size_t capacity) -> long {
        while (*left > 0) {
            const long got = inner(buffer, static_cast<std::size_t>(std::min<std::uint64_t>(*left, capacity)));
            if (got <= 0)
                return got;
            *left -= static_cast<std::uint64_t>(got);
        }
        return inner(buffer, capacity);
    };
}

/// UTF-16 index of a byte offset in UTF-8 text.
int utf16Index(std::string_view utf8, std::size_t byteOffset)
{
    int units = 0;
    for (std::size_t i = 0; i < byteOffset && i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if ((c & 0xc0) != 0x80)
            units += c >= 0xf0 ? 2 : 1;
    }
    return units;
}

void lowerAscii(std::string& s)
{
    for (char& c : s) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
}

void scanFile(QPromise<QVector<qint64>>& promise, const engine::BundleFile& file, const views::LineQuery& query)
{
    std::string error;
    const importers::ReadFn read = importers::openBundleFile(file, error);
    const views::LineMatcher matcher(query);
    if (!read || query.isEmpty() || !matcher.isValid())
        return;
    // Plain ASCII-folded byte search for text queries (fast on large files); regular expressions on decoded lines.
    const bool caseSensitive = query.cs == Qt::CaseSensitive;
    std::string needle = query.text.toStdString();
    if (!caseSensitive)
        lowerAscii(needle);
    QVector<qint64> batch;
    std::string lowered;
    qint64 line = 0;
    importers::readLines(read, [&](const importers::RawLine& raw) {
        if ((line & 0xfff) == 0 && promise.isCanceled())
            return false;
        bool hit = false;
        if (query.regex) {
            hit = matcher.hits(QString::fromUtf8(raw.bytes.data(), static_cast<qsizetype>(raw.bytes.size())));
        } else {
            std::string_view text = raw.bytes;
            if (!caseSensitive) {
                lowered.assign(text);
                lowerAscii(lowered);
                text = lowered;
            }
            hit = text.find(needle) != std::string_view::npos;
        }
        if (hit != query.invert)
            batch.append(line);
        ++line;
        if (batch.size() >= 4096 || (!batch.isEmpty() && (line & 0x3ffff) == 0)) {
            promise.addResult(batch);
            batch.clear();
        }
        return true;
    });
    if (!batch.isEmpty() && !promise.isCanceled())
        promise.addResult(batch);
}

}  // namespace

FileEvidenceSource::FileEvidenceSource(std::vector<engine::BundleFile> files, engine::CatalogPtr catalog,
                                       QObject* parent)
    : views::EvidenceSource(parent)
    , m_files(std::move(files))
    , m_catalog(std::move(catalog))
{
    m_indexes.resize(m_files.size());
    m_access.resize(m_files.size());
    m_pool.setMaxThreadCount(2);
}

FileEvidenceSource::~FileEvidenceSource()
{
    // Stop the scans before QObject teardown: their progress callbacks post to this object.
    for (auto& index : m_indexes) {
        if (index)
            index->stop();
    }
    m_pool.waitForDone();
}

bool FileEvidenceSource::sameFiles(const std::vector<engine::BundleFile>& files) const
{
    return std::equal(files.begin(), files.end(), m_files.begin(), m_files.end(), [](const auto& a, const auto& b) {
        return a.path == b.path && a.absolutePath == b.absolutePath && a.size == b.size;
    });
}

int FileEvidenceSource::fileCount() const
{
    return static_cast<int>(m_files.size());
}

QString FileEvidenceSource::filePath(int file) const
{
    return file >= 0 && file < fileCount() ? QString::fromStdString(m_files[file].path) : QString();
}

const FileEvidenceSource::FileAccess& FileEvidenceSource::access(int file) const
{
    static const FileAccess none{Access::Unavailable, QStringLiteral("no such file")};
    if (file < 0 || file >= fileCount())
        return none;
    auto& known = m_access[file];
    if (!known) {
        const auto& f = m_files[file];
        std::string error;
        FileAccess a;
        if (f.absolutePath.empty() && f.archiveMember.empty())
            a = {Access::Unavailable, QStringLiteral("the analysis kept no path to re-read this file")};
        else if (!f.archiveMember.empty())
            a = {Access::Stream, {}};
        else if (QFile in(QString::fromStdString(f.absolutePath)); !in.open(QIODevice::ReadOnly))
            a = {Access::Unavailable, in.errorString()};
        else  // a compressed or UTF-16 file is read through its decoding stream (openBundleFile)
            a = {importers::probeFile(f.absolutePath) == importers::Container::Plain &&
                         importers::utf16Order(importers::regularFileHead(
                             f.absolutePath, importers::Utf16ProbeBytes)) == importers::Utf16Order::None
                     ? Access::Seekable
                     : Access::Stream,
                 {}};
        if (a.access == Access::Stream && !importers::openBundleFile(f, error))
            a = {Access::Unavailable, QString::fromStdString(error)};
        known = a;
    }
    return *known;
}

views::LineCount FileEvidenceSource::lineCount(int file)
{
    const FileAccess& a = access(file);
    if (a.access == Access::Unavailable)
        return {0, true, false, a.problem};
    auto& index = m_indexes[file];
    if (!index) {
        index = std::make_unique<LineIndex>(
            [f = m_files[file]](std::string& error) { return importers::openBundleFile(f, error); });
        index->start(&m_pool, [this, file] {
            QMetaObject::invokeMethod(
                this, [this, file] { Q_EMIT lineCountChanged(file); }, Qt::QueuedConnection);
        });
    }
    const LineIndex::State s = index->state();
    return {s.lines, s.complete, s.error.empty() || s.lines > 0, QString::fromStdString(s.error)};
}

QStringList FileEvidenceSource::decodeLines(const importers::ReadFn& read, qint64 checkpointLine, qint64 first,
                                            qint64 count) const
{
    QStringList out;
    qint64 line = checkpointLine;
    importers::readLines(
        read,
        [&](const importers::RawLine& raw) {
            if (line >= first)
                out.append(decode(raw));
            ++line;
            return line < first + count;
        },
        DisplayLineCap, std::size_t{64} * 1024);
    return out;
}

QStringList FileEvidenceSource::readLines(int file, qint64 first, qint64 count)
{
    const FileAccess& a = access(file);
    if (count <= 0 || a.access == Access::Unavailable)
        return {};
    if (a.access == Access::Stream)
        return readStreamLines(file, first, count);
    lineCount(file);
    std::uint64_t offset = 0;
    std::int64_t line = 0;
    if (!m_indexes[file]->locate(first, offset, line))
        return {};
    const importers::ReadFn read = readerAt(m_files[file].absolutePath, offset);
    return read ? decodeLines(read, line, first, count) : QStringList();
}

QStringList FileEvidenceSource::readStreamLines(int file, qint64 first, qint64 count)
{
    const bool cached =
        m_block.file == file && first >= m_block.first && first + count <= m_block.first + m_block.lines.size();
    if (!cached) {
        lineCount(file);
        const qint64 start = std::max<qint64>(0, first - StreamBlockLines / 4);
        std::uint64_t offset = 0;
        std::int64_t line = 0;
        if (!m_indexes[file]->locate(start, offset, line))
            return {};
        std::string error;
        const importers::ReadFn read = skipping(importers::openBundleFile(m_files[file], error), offset);
        m_block = {file, start, decodeLines(read, line, start, std::max(count, StreamBlockLines))};
    }
    return m_block.lines.mid(first - m_block.first, count);
}

QString FileEvidenceSource::readRecord(int file, quint64 offset, quint32 length)
{
    const FileAccess& a = access(file);
    if (a.access == Access::Unavailable)
        return {};
    QByteArray bytes;
    if (a.access == Access::Stream) {
        std::string error;
        const std::string text = importers::readBundleBytes(m_files[file], offset, std::min(length, RecordCap), error);
        bytes = QByteArray::fromStdString(text);
    } else {
        QFile f(QString::fromStdString(m_files[file].absolutePath));
        if (!f.open(QIODevice::ReadOnly) || !f.seek(static_cast<qint64>(offset)))
            return {};
        bytes = f.read(std::min(length, RecordCap));
    }
    while (bytes.endsWith('\n') || bytes.endsWith('\r'))
        bytes.chop(1);
    return QString::fromUtf8(bytes);
}

QList<views::TextSpan> FileEvidenceSource::matchSpans(engine::SourceKind kind, const QString& text) const
{
    QList<views::TextSpan> spans;
    if (!m_catalog)
        return spans;
    const std::string utf8 = text.toStdString();
    // The rules that match the line as the analysis decides it (prefilter, kinds, require/map/exclude); only they
    // run again for their spans, so a painted row costs a few patterns, not the catalog's thousands.
    std::vector<engine::LineMatch> found;
    m_catalog->extractorSet().match(kind, utf8, found);
    for (const auto& m : found) {
        const re2::RE2& re = m.rule->re->regex();
        const int groups = re.NumberOfCapturingGroups();
        std::vector<re2::StringPiece> match(static_cast<std::size_t>(groups) + 1);
        if (!re.Match(utf8, 0, utf8.size(), RE2::UNANCHORED, match.data(), groups + 1))
            continue;
        const auto span = [&](const re2::StringPiece& piece, bool capture) {
            const auto begin = static_cast<std::size_t>(piece.data() - utf8.data());
            const int start = utf16Index(utf8, begin);
            spans.append({start, utf16Index(utf8, begin + piece.size()) - start, capture});
        };
        span(match[0], false);
        for (const auto& [name, group] : re.NamedCapturingGroups()) {
            if (group <= groups && match[group].data() && !match[group].empty())
                span(match[group], true);
        }
    }
    return spans;
}

QFuture<QVector<qint64>> FileEvidenceSource::findLines(int file, const views::LineQuery& query)
{
    if (access(file).access == Access::Unavailable)
        return QtFuture::makeReadyFuture(QVector<qint64>());
    return QtConcurrent::run(&m_pool, scanFile, m_files[file], query);
}

}  // namespace attrib::app
