// SPDX-License-Identifier: GPL-3.0-or-later
// Re-reading bundle files by offset, and streaming a bundle's entries with one pass per archive.
#include "importers/bundle_access.h"
#include "importers/file_open.h"
#include "importers/utf16_text.h"

#include <algorithm>
#include <cstring>
#include <map>

#include <unistd.h>

namespace attrib::importers {

ReadFn replayReader(std::string head, ReadFn rest)
{
    struct State {
        std::string head;
        std::size_t pos = 0;
        ReadFn rest;
    };
    auto s = std::make_shared<State>();
    s->head = std::move(head);
    s->rest = std::move(rest);
    return [s](char* buffer, std::size_t capacity) -> long {
        if (s->pos < s->head.size()) {
            const std::size_t n = std::min(capacity, s->head.size() - s->pos);
            std::copy_n(s->head.data() + s->pos, n, buffer);
            s->pos += n;
            return static_cast<long>(n);
        }
        return s->rest ? s->rest(buffer, capacity) : 0;
    };
}

ReadFn openBundleFile(const engine::BundleFile& file, std::string& error, ErrorSink streamError)
{
    if (!streamError)
        streamError = std::make_shared<std::string>();
    ReadFn raw = file.archiveMember.empty()
        ? regularFileReader(file.absolutePath, error, streamError)
        : archiveMemberReader(file.absolutePath, file.archiveMember, nullptr, streamError, error);
    if (!raw)
        return {};
    bool compressed = false;
    ReadFn read = maybeDecompress(std::move(raw), file.size, nullptr, streamError, compressed);
    // UTF-16 text reads as UTF-8, as the importer reads it (Collector::readEntry), so offsets and lines agree.
    std::string head(Utf16ProbeBytes, '\0');
    std::size_t got = 0;
    while (got < head.size()) {
        const long n = read(head.data() + got, head.size() - got);
        if (n < 0)
            return read;  // its error shows on the next read
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    const Utf16Order order = utf16Order(head);
    ReadFn replay = replayReader(std::move(head), std::move(read));
    return order == Utf16Order::None ? replay : utf16Reader(std::move(replay), order);
}

namespace {

/// Plain files: read the range in place.
bool preadRange(const engine::BundleFile& file, std::uint64_t offset, std::size_t length, std::string& out,
                std::string& error)
{
    RegularFile opened;
    if (const std::string problem = opened.open(file.absolutePath); !problem.empty()) {
        error = "cannot open " + file.path + ": " + problem;
        return false;
    }
    const int fd = opened.fd();
    char magic[Utf16ProbeBytes] = {};
    const ssize_t head = ::pread(fd, magic, sizeof magic, 0);
    const std::string_view start(magic, head > 0 ? static_cast<std::size_t>(head) : 0);
    if (hasCompressionMagic(start) || utf16Order(start) != Utf16Order::None)
        return false;  // compressed or UTF-16: take the streaming path
    out.resize(length);
    std::size_t got = 0;
    while (got < length) {
        const ssize_t n = ::pread(fd, out.data() + got, length - got, static_cast<off_t>(offset + got));
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return true;
}

}  // namespace

std::string readBundleBytes(const engine::BundleFile& file, std::uint64_t offset, std::uint64_t length,
                            std::string& error, std::size_t maxBytes)
{
    error.clear();
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(length, maxBytes));
    std::string out;
    if (file.archiveMember.empty() && preadRange(file, offset, want, out, error))
        return out;
    if (!error.empty())
        return {};
    auto streamError = std::make_shared<std::string>();
    ReadFn read = openBundleFile(file, error, streamError);
    if (!read)
        return {};
    std::vector<char> buffer(1 << 16);
    std::uint64_t position = 0;
    while (out.size() < want) {
        const long got = read(buffer.data(), buffer.size());
        if (got < 0) {
            error = streamError->empty() ? "read error" : *streamError;
            break;
        }
        if (got == 0)
            break;
        const std::uint64_t end = position + static_cast<std::uint64_t>(got);
        if (end > offset) {
            const std::size_t from = offset > position ? static_cast<std::size_t>(offset - position) : 0;
            const std::size_t n = std::min(static_cast<std::size_t>(got) - from, want - out.size());
            out.append(buffer.data() + from, n);
        }
        position = end;
    }
    return out;
}

std::vector<std::string> readBundleLines(const engine::BundleFile& file, std::uint64_t offset, std::uint64_t length,
                                         std::string& error, std::size_t maxBytes)
{
    const std::string bytes = readBundleBytes(file, offset, length, error, maxBytes);
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        std::size_t end = bytes.find('\n', pos);
        if (end == std::string::npos)
            end = bytes.size();
        std::string line = bytes.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        pos = end + 1;
    }
    return lines;
}

void visitEntries(const std::vector<BundleEntry>& entries, const std::vector<std::size_t>& chosen,
                  const std::function<bool(std::size_t, const ReadFn&, const ErrorSink&, const std::string&)>& visit,
                  DecompressionBudget* budget)
{
    std::map<std::string, std::map<std::string, std::size_t>> archives;  // archive -> member -> entry index
    std::vector<std::size_t> order;  // plain files, and each archive once at its first chosen entry
    for (const std::size_t i : chosen) {
        const auto& f = entries[i].file;
        if (f.archiveMember.empty()) {
            order.push_back(i);
            continue;
        }
        auto& members = archives[f.absolutePath];
        if (members.empty())
            order.push_back(i);
        members.emplace(f.archiveMember, i);
    }
    for (const std::size_t i : order) {
        const auto& f = entries[i].file;
        auto error = std::make_shared<std::string>();
        if (f.archiveMember.empty()) {
            std::string openError;
            const ReadFn read = regularFileReader(f.absolutePath, openError, error);
            if (!visit(i, read, error, openError))
                return;
            continue;
        }
        auto& members = archives[f.absolutePath];
        bool stop = false;
        const std::string problem = visitArchive(
            f.absolutePath, [&](const std::string& m) { return members.count(m) > 0; },
            [&](const std::string& m, const ReadFn& read) {
                const std::size_t index = members.at(m);
                members.erase(m);
                *error = {};
                stop = !visit(index, read, error, {});
                return !stop && !members.empty();  // no need to read the rest of the archive
            },
            budget, error);
        if (stop)
            return;
        for (const auto& [member, index] : members)  // not reached: the archive ended or broke first
            if (!visit(index, {}, error, problem.empty() ? "member not found in the archive" : problem))
                return;
        members.clear();
    }
}

}  // namespace attrib::importers
