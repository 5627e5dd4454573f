// SPDX-License-Identifier: GPL-3.0-or-later
// libarchive wrappers: probing, listing and streaming archive members and compressed files, all in memory,
// each stream checked against the decompression budget and ratio limit.
#include "importers/archive.h"
#include "importers/archive_gzip.h"
#include "importers/archive_meter.h"
#include "importers/file_open.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace attrib::importers {

using namespace detail;

namespace {

/// libarchive handle set up for tar and zip with every decompression filter.
ArchivePtr newArchiveReader()
{
    ArchivePtr a(archive_read_new());
    archive_read_support_filter_all(a.get());
    archive_read_support_format_tar(a.get());
    archive_read_support_format_gnutar(a.get());
    archive_read_support_format_zip(a.get());
    return a;
}

/// An archive read from a descriptor opened safely (never a FIFO or device; the descriptor outlives the handle).
/// A gzip-compressed archive is inflated by zlib rather than by libarchive's filter, which ignores the gzip
/// trailer: this way a wrong CRC-32 or length is an error (see drainTrailer).
struct OpenArchive {
    RegularFile file;
    ArchivePtr a;
    std::string error;
    ReadFn gzip;  ///< set for a gzip-compressed archive
    ErrorSink gzipError = std::make_shared<std::string>();
    std::uint64_t offset = 0;  ///< raw bytes read from the file
    std::vector<char> block;   ///< what the read callback last handed to libarchive
};

la_ssize_t readGzipBlock(archive* a, void* data, const void** buffer)
{
    auto* open = static_cast<OpenArchive*>(data);
    const long got = open->gzip(open->block.data(), open->block.size());
    if (got < 0) {
        archive_set_error(a, EIO, "%s", open->gzipError->c_str());
        return ARCHIVE_FATAL;
    }
    *buffer = open->block.data();
    return got;
}

std::unique_ptr<OpenArchive> openArchive(const std::string& path)
{
    auto open = std::make_unique<OpenArchive>();
    open->error = open->file.open(path);
    if (!open->error.empty())
        return open;
    open->a = newArchiveReader();
    unsigned char magic[2] = {};
    if (::pread(open->file.fd(), magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        OpenArchive* raw = open.get();
        ReadFn fileBytes = [raw](char* buffer, std::size_t capacity) -> long {
            const std::uint64_t left = raw->file.sizeAtOpen() - std::min(raw->offset, raw->file.sizeAtOpen());
            const ssize_t n = ::pread(raw->file.fd(), buffer, std::min<std::uint64_t>(capacity, left),
                                      static_cast<off_t>(raw->offset));
            if (n < 0) {
                *raw->gzipError = std::string("cannot read the archive: ") + std::strerror(errno);
                return -1;
            }
            raw->offset += static_cast<std::uint64_t>(n);
            return static_cast<long>(n);
        };
        // Bytes are charged by the member readers (StreamMeter), so the gzip stage charges nothing itself.
        open->gzip = gzipReader(
            std::move(fileBytes), [](std::uint64_t) { return std::string(); }, open->gzipError);
        open->block.resize(CallbackBlock);
        if (archive_read_open(open->a.get(), open.get(), nullptr, readGzipBlock, nullptr) != ARCHIVE_OK)
            open->error = archiveError(open->a.get(), "cannot open archive");
        return open;
    }
    if (archive_read_open_fd(open->a.get(), open->file.fd(), CallbackBlock) != ARCHIVE_OK)
        open->error = archiveError(open->a.get(), "cannot open archive");
    return open;
}

/// After the archive's end marker: reads what is left of a gzip stream (tar padding) so that zlib checks the
/// CRC-32 and length trailer. The bytes count against `meter`. Returns "" or the damage found.
std::string drainTrailer(OpenArchive& open, StreamMeter& meter)
{
    if (!open.gzip)
        return {};
    for (;;) {
        const long got = open.gzip(open.block.data(), open.block.size());
        if (got == 0)
            return {};
        if (got < 0)
            return *open.gzipError;
        if (auto problem = meter.charge(static_cast<std::uint64_t>(got)); !problem.empty())
            return problem;
    }
}

bool isFileEntry(archive_entry* entry)
{
    return archive_entry_filetype(entry) == AE_IFREG;
}

/// Skips the current member's data. Where the archive is not compressed this seeks; otherwise skipping means
/// decompressing, so the bytes are read and charged like any other (stopping at the cap or the ratio limit).
std::string skipMember(const OpenArchive& open, StreamMeter& meter)
{
    archive* a = open.a.get();
    if (!open.gzip && archive_filter_code(a, 0) == ARCHIVE_FILTER_NONE)
        return archive_read_data_skip(a) == ARCHIVE_OK ? std::string()
                                                       : archiveError(a, "cannot skip the archive member");
    const void* block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    for (;;) {
        const int rc = archive_read_data_block(a, &block, &size, &offset);
        if (rc == ARCHIVE_EOF)
            return {};
        if (rc < ARCHIVE_WARN)
            return archiveError(a, "cannot skip the archive member");
        if (auto problem = meter.charge(size); !problem.empty())
            return problem;
    }
}

std::string entryProblem(archive_entry* entry, std::string_view name)
{  // one rule for the analysis, the listing and the evidence view

    if (auto unsafe = unsafeMemberPath(name); !unsafe.empty())
        return unsafe;
    if (archive_entry_hardlink(entry) != nullptr)
        return "hard link inside the archive: not followed";
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFLNK)
        return "symbolic link inside the archive: not followed";
    if (type != AE_IFREG)
        return "not a regular file (device, socket or pipe entry)";
    return {};
}

/// A member the analysis reads: a regular file entry (not a hard link, even one carrying data) at a safe path.
bool readableMember(archive_entry* entry, std::string_view name)
{
    return isFileEntry(entry) && entryProblem(entry, name).empty();
}

}  // namespace

bool hasArchiveMagic(std::string_view h)
{
    if (h.substr(0, 4) == "PK\x03\x04" || h.substr(0, 4) == "PK\x05\x06")
        return true;
    return h.size() >= 262 && h.substr(257, 5) == "ustar";
}

Container probeFile(const std::string& path)
{
    const std::string view = regularFileHead(path, 512);
    if (hasArchiveMagic(view))
        return Container::Archive;
    if (!hasCompressionMagic(view))
        return Container::Plain;
    // A compressed tar (.tar.gz, .tgz, .tar.xz): the decompressed head says.
    RegularFile file;
    if (!file.open(path).empty())
        return Container::Compressed;
    ArchivePtr a = newArchiveReader();
    archive_read_support_format_raw(a.get());
    if (archive_read_open_fd(a.get(), file.fd(), CallbackBlock) != ARCHIVE_OK)
        return Container::Compressed;
    archive_entry* entry = nullptr;
    if (archive_read_next_header(a.get(), &entry) < ARCHIVE_WARN)
        return Container::Compressed;
    return archive_format(a.get()) == ARCHIVE_FORMAT_RAW ? Container::Compressed : Container::Archive;
}

std::string unsafeMemberPath(std::string_view name)
{
    if (name.empty())
        return "member without a name";
    if (name.front() == '/' || name.front() == '\\' || (name.size() > 1 && name[1] == ':'))
        return "absolute path inside the archive: rejected";
    std::size_t start = 0;
    while (start <= name.size()) {
        std::size_t end = name.find_first_of("/\\", start);
        if (end == std::string_view::npos)
            end = name.size();
        if (name.substr(start, end - start) == "..")
            return "path escapes the bundle (..): rejected";
        start = end + 1;
    }
    return {};
}

namespace {

/// One header of a listing as a member: its problem, and the listing error when the caps stop it.
ArchiveMember describeMember(archive_entry* entry, std::string name)
{
    ArchiveMember m;
    m.name = std::move(name);
    m.size = archive_entry_size_is_set(entry) ? static_cast<std::uint64_t>(archive_entry_size(entry)) : 0;
    m.mtime = archive_entry_mtime(entry);
    m.problem = entryProblem(entry, m.name);
    return m;
}

}  // namespace

ArchiveListing listArchive(const std::string& path, DecompressionBudget& budget)
{
    ArchiveListing listing;
    const ArchiveLimits& limits = budget.limits();
    auto open = openArchive(path);
    if (!open->error.empty()) {
        listing.error = open->error;
        return listing;
    }
    archive* a = open->a.get();
    StreamMeter meter;
    meter.compressed = open->file.sizeAtOpen();
    meter.budget = &budget;
    std::uint64_t declared = 0;
    std::size_t headers = 0;  // folders included: a flood of folder entries costs as much to list
    for (;;) {
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(a, &entry);
        if (rc == ARCHIVE_EOF) {
            if (auto damage = drainTrailer(*open, meter); !damage.empty())
                listing.error = "damaged archive: " + damage;
            break;
        }
        if (rc < ARCHIVE_WARN) {
            listing.error = "damaged archive: " + archiveError(a, "cannot read the next member");
            break;
        }
        const char* raw = archive_entry_pathname(entry);
        ArchiveMember m = describeMember(entry, raw ? raw : "");
        const bool folder = archive_entry_filetype(entry) == AE_IFDIR && unsafeMemberPath(m.name).empty();
        if (++headers > limits.maxMembers || !budget.takeMember()) {
            listing.error = "more than " +
                (headers > limits.maxMembers ? std::to_string(limits.maxMembers) + " members in this archive"
                                             : std::to_string(limits.maxMembersTotal) + " members per analysis") +
                "; the rest is not listed";
            break;
        }
        if (!folder && m.problem.empty() && isFileEntry(entry)) {
            declared += m.size;
            if (declared > limits.maxDecompressedBytes) {
                m.problem = "declares " + sizeText(m.size) + ", over the decompressed size cap of " +
                    sizeText(limits.maxDecompressedBytes);
                listing.members.push_back(std::move(m));
                listing.error = "listing stopped at a member over the decompressed size cap";
                break;
            }
        }
        if (!folder)
            listing.members.push_back(std::move(m));
        if (auto problem = skipMember(*open, meter); !problem.empty()) {
            listing.error = "listing stopped: " + problem;
            break;
        }
    }
    return listing;
}

namespace {

constexpr const char* MemberReadError = "cannot read the archive member";

}  // namespace

std::string visitArchive(const std::string& path, const std::function<bool(const std::string&)>& wanted,
                         const std::function<bool(const std::string& member, const ReadFn& read)>& visit,
                         DecompressionBudget* budget, const ErrorSink& error)
{
    auto open = openArchive(path);
    if (!open->error.empty())
        return open->error;
    archive* a = open->a.get();
    StreamMeter meter;
    meter.compressed = open->file.sizeAtOpen();
    meter.budget = budget;
    for (;;) {
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(a, &entry);
        if (rc == ARCHIVE_EOF)
            return {};
        if (rc < ARCHIVE_WARN)
            return "damaged archive: " + archiveError(a, "cannot read the next member");
        const char* raw = archive_entry_pathname(entry);
        const std::string name = raw ? raw : "";
        if (!readableMember(entry, name) || !wanted(name)) {
            if (auto problem = skipMember(*open, meter); !problem.empty())
                return "archive read stopped: " + problem;
            continue;
        }
        auto stream = std::make_shared<MeteredReader>();
        stream->a = a;
        stream->meter = &meter;
        stream->error = error;
        const ReadFn read = [stream](char* buffer, std::size_t capacity) {
            return stream->read(buffer, capacity, MemberReadError);
        };
        if (!visit(name, read))
            return {};
        if (!meter.stopped.empty())
            return "archive read stopped: " + meter.stopped;
        if (meter.budget && meter.budget->exhausted())
            return "decompressed size cap reached";
        if (auto problem = skipMember(*open, meter); !problem.empty())  // what the visitor left unread
            return "archive read stopped: " + problem;
    }
}

ReadFn archiveMemberReader(const std::string& path, const std::string& member, DecompressionBudget* budget,
                           ErrorSink error, std::string& openError)
{
    struct Holder {
        std::unique_ptr<OpenArchive> open;
        StreamMeter meter;
        MeteredReader stream;
    };
    auto h = std::make_shared<Holder>();
    h->open = openArchive(path);
    if (!h->open->error.empty()) {
        openError = h->open->error;
        return {};
    }
    archive* a = h->open->a.get();
    h->meter.compressed = h->open->file.sizeAtOpen();
    h->meter.budget = budget;
    for (;;) {
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(a, &entry);
        if (rc == ARCHIVE_EOF) {
            openError = "member not found in the archive: " + member;
            return {};
        }
        if (rc < ARCHIVE_WARN) {
            openError = "damaged archive: " + archiveError(a, "cannot read the next member");
            return {};
        }
        const char* raw = archive_entry_pathname(entry);
        if (raw && member == raw && readableMember(entry, member))
            break;  // the same occurrence the analysis read: the first readable one
        if (auto problem = skipMember(*h->open, h->meter); !problem.empty()) {
            openError = "archive read stopped: " + problem;
            return {};
        }
    }
    h->stream.a = a;
    h->stream.meter = &h->meter;
    h->stream.error = std::move(error);
    openError.clear();
    return [h](char* buffer, std::size_t capacity) { return h->stream.read(buffer, capacity, MemberReadError); };
}

bool plausibleEpochSeconds(std::int64_t seconds)
{
    constexpr std::int64_t Year2000 = 946684800;
    const std::int64_t now = static_cast<std::int64_t>(::time(nullptr));
    return seconds >= Year2000 && seconds <= now + 100LL * 365 * 86400;
}

}  // namespace attrib::importers
