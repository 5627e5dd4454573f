// SPDX-License-Identifier: GPL-3.0-or-later
// Safe opening and bounded reading of bundle files.
#include "importers/file_open.h"

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attrib::importers {

namespace {

std::string errnoText(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

const char* typeName(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

/// Reads a regular file up to its size at open, then checks it did not change size meanwhile.
struct BoundedReader {
    std::shared_ptr<RegularFile> file;
    std::shared_ptr<std::string> error;
    std::uint64_t done = 0;
    bool failed = false;

    long fail(const std::string& text)
    {
        failed = true;
        if (error)
            *error = text;
        errno = EIO;
        return -1;
    }

    long atEnd()
    {
        struct stat now { };
        if (::fstat(file->fd(), &now) == 0 && static_cast<std::uint64_t>(now.st_size) > done)
            return fail("the file grew while being read; read up to the " + std::to_string(done) +
                        " bytes it had when opened");
        return 0;
    }

    long read(char* buffer, std::size_t capacity)
    {
        if (failed)
            return -1;
        const std::uint64_t left = file->sizeAtOpen() - done;
        if (left == 0)
            return atEnd();
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, left));
        for (;;) {
            const ssize_t got = ::read(file->fd(), buffer, want);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return fail("reading would block: not the content of a regular file");
            if (got < 0)
                return fail(errnoText(errno));
            if (got == 0)
                return fail("the file was truncated while being read (" + std::to_string(file->sizeAtOpen()) +
                            " bytes when opened, " + std::to_string(done) + " read)");
            done += static_cast<std::uint64_t>(got);
            return static_cast<long>(got);
        }
    }
};

}  // namespace

RegularFile::~RegularFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::string RegularFile::open(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0)
        return errno == ELOOP ? "a symbolic link where a file was expected: not followed" : errnoText(errno);
    m_fd = fd;
    struct stat info { };
    if (::fstat(fd, &info) != 0)
        return errnoText(errno);
    if (!S_ISREG(info.st_mode))
        return std::string("not a regular file when opened (") + typeName(info.st_mode) + ")";
    m_size = static_cast<std::uint64_t>(info.st_size);
    return {};
}

ReadFn regularFileReader(const std::string& path, std::string& error, std::shared_ptr<std::string> streamError)
{
    auto file = std::make_shared<RegularFile>();
    error = file->open(path);
    if (!error.empty())
        return {};
    auto reader = std::make_shared<BoundedReader>();
    reader->file = std::move(file);
    reader->error = std::move(streamError);
    return [reader](char* buffer, std::size_t capacity) { return reader->read(buffer, capacity); };
}

std::string regularFileHead(const std::string& path, std::size_t max)
{
    std::string error;
    const ReadFn read = regularFileReader(path, error);
    std::string head;
    if (!read)
        return head;
    head.resize(max);
    std::size_t got = 0;
    while (got < max) {
        const long n = read(head.data() + got, max - got);
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    return head;
}

}  // namespace attrib::importers
