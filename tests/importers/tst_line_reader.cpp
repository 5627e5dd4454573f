// SPDX-License-Identifier: GPL-3.0-or-later
// Tests the chunked line reader: CRLF, final lines, truncation and resync, chunk boundaries, files.
#include "importers/line_reader.h"

#include <QtTest>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

using namespace attrib::importers;

namespace {

struct Line {
    std::uint64_t number = 0;
    std::uint64_t offset = 0;
    std::string bytes;
    bool truncated = false;
    std::uint64_t fullLength = 0;
};

/// A ReadFn over an in-memory string that hands out at most `piece` bytes per call.
ReadFn stringReader(std::string data, std::size_t piece = SIZE_MAX, int* calls = nullptr)
{
    auto state = std::make_shared<std::pair<std::string, std::size_t>>(std::move(data), 0);
    return [state, piece, calls](char* buffer, std::size_t capacity) -> long {
        if (calls)
            ++*calls;
        auto& [text, pos] = *state;
        const std::size_t n = std::min({capacity, piece, text.size() - pos});
        std::copy_n(text.data() + pos, n, buffer);
        pos += n;
        return static_cast<long>(n);
    };
}

std::vector<Line> collect(const ReadFn& read, ReadStats* stats = nullptr, std::size_t maxLine = 1 << 20,
                          std::size_t chunk = 1 << 20)
{
    std::vector<Line> lines;
    const ReadStats result = readLines(
        read,
        [&lines](const RawLine& raw) {
            lines.push_back({raw.number, raw.offset, std::string(raw.bytes), raw.truncated, raw.fullLength});
            return true;
        },
        maxLine, chunk);
    if (stats)
        *stats = result;
    return lines;
}

/// The obvious whole-buffer splitter the reader must agree with.
std::vector<Line> reference(const std::string& data, std::size_t maxLine)
{
    std::vector<Line> lines;
    std::size_t start = 0;
    std::size_t physical = 0;
    while (start < data.size()) {
        std::size_t end = data.find('\n', start);
        const bool last = end == std::string::npos;
        if (last)
            end = data.size();
        std::string text = data.substr(start, end - start);
        if (!text.empty() && text.back() == '\r')
            text.pop_back();
        const std::uint64_t full = text.size();
        // The kept prefix is cut at each \r (a progress bar's rewrites); empty segments are dropped unless the
        // line has nothing else. Segments share the physical line's number.
        const std::string kept = text.substr(0, maxLine);
        const std::size_t number = ++physical;
        bool any = false;
        for (std::size_t begin = 0;;) {
            const std::size_t cr = kept.find('\r', begin);
            const bool lastPiece = cr == std::string::npos;
            const std::string piece = kept.substr(begin, lastPiece ? std::string::npos : cr - begin);
            if (!piece.empty() || (lastPiece && !any))
                lines.push_back({number, start + begin, piece, lastPiece && full > maxLine,
                                 lastPiece ? full - begin : piece.size()});
            any = any || !piece.empty();
            if (lastPiece)
                break;
            begin = cr + 1;
        }
        start = end + 1;
    }
    return lines;
}

QStringList texts(const std::vector<Line>& lines)
{
    QStringList out;
    for (const auto& line : lines)
        out << QString::fromStdString(line.bytes);
    return out;
}

int openFdCount()
{
    int count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++count;
    return count;
}

}  // namespace

class TestLineReader : public QObject {
    Q_OBJECT

private slots:
    void splitting_data();
    void splitting();
    void offsetsAndNumbers();
    void giantLineTruncatedAndResynced_data();
    void giantLineTruncatedAndResynced();
    void truncationAndCarriageReturn();
    void crAcrossChunkBoundary();
    void cancellation();
    void readErrorKeepsPartialLine();
    void missingReader();
    void matchesReferenceOnRandomInput();
    void fileReaderReadsFile();
    void fileReaderErrors();
    void fileReaderClosesDescriptor();
};

void TestLineReader::splitting_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("empty") << QByteArray() << QStringList{};
    QTest::newRow("one newline") << QByteArray("\n") << QStringList{""};
    QTest::newRow("blank lines") << QByteArray("\n\n") << QStringList{"", ""};
    QTest::newRow("final newline") << QByteArray("a\nbb\n") << QStringList{"a", "bb"};
    QTest::newRow("no final newline") << QByteArray("a\nbb") << QStringList{"a", "bb"};
    QTest::newRow("single line no newline") << QByteArray("hello world") << QStringList{"hello world"};
    QTest::newRow("CRLF") << QByteArray("a\r\nbb\r\n\r\nc") << QStringList{"a", "bb", "", "c"};
    QTest::newRow("CR only line") << QByteArray("\r\n") << QStringList{""};
    QTest::newRow("final CR stripped") << QByteArray("x\r") << QStringList{"x"};
    // A progress bar rewrites one terminal line: its \r-separated segments are lines of their own.
    QTest::newRow("inner CR splits segments") << QByteArray("a\rb\n") << QStringList{"a", "b"};
    QTest::newRow("empty segments dropped") << QByteArray("a\r\r\n") << QStringList{"a"};
    // Output written right behind a progress bar (its \r lost in a paste, another process writing after it)
    // starts a segment of its own after the bar's statistics bracket; a bar alone, or a bracket that is not one,
    // stays whole.
    QTest::newRow("text after a bar") << QByteArray("9%|#| 5/55 [00:01<00:09,  4.53it/s]Traceback (most recent)\n")
                                      << QStringList{"9%|#| 5/55 [00:01<00:09,  4.53it/s]", "Traceback (most recent)"};
    QTest::newRow("unknown total") << QByteArray("15247it [58:54,  4.53it/s]Waiting in store\n")
                                   << QStringList{"15247it [58:54,  4.53it/s]", "Waiting in store"};
    QTest::newRow("postfix, then a blank") << QByteArray("5/9 [1:00:01<?, 1.20s/it, loss=0.3]  slurmstepd: x\n")
                                           << QStringList{"5/9 [1:00:01<?, 1.20s/it, loss=0.3]", "slurmstepd: x"};
    QTest::newRow("CR, then a bar") << QByteArray("a\r5/9 [00:01<00:01, ?it/s][rank1]: x\n")
                                    << QStringList{"a", "5/9 [00:01<00:01, ?it/s]", "[rank1]: x"};
    QTest::newRow("a bar alone") << QByteArray("5/9 [00:01<00:01, 4.5it/s, loss=0.3]  \n")
                                 << QStringList{"5/9 [00:01<00:01, 4.5it/s, loss=0.3]  "};
    QTest::newRow("no bar") << QByteArray("[00:01, 3 items/s] x [12:30, up] y\n")
                            << QStringList{"[00:01, 3 items/s] x [12:30, up] y"};
    QTest::newRow("lines across chunks") << QByteArray("hello world\nfoo bar baz qux\nend")
                                         << QStringList{"hello world", "foo bar baz qux", "end"};
}

void TestLineReader::splitting()
{
    QFETCH(QByteArray, input);
    QFETCH(QStringList, expected);
    // The result must not depend on how the bytes arrive.
    for (const std::size_t chunk :
         {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(7), std::size_t(1) << 20}) {
        ReadStats stats;
        const auto lines = collect(stringReader(input.toStdString()), &stats, 1 << 20, chunk);
        QCOMPARE(texts(lines), expected);
        const auto physical = std::uint64_t(input.count('\n') + (input.isEmpty() || input.endsWith('\n') ? 0 : 1));
        QCOMPARE(stats.lines, physical);  // physical lines; \r segments are not counted apart
        QCOMPARE(stats.bytes, std::uint64_t(input.size()));
        QVERIFY(!stats.error);
    }
}

void TestLineReader::offsetsAndNumbers()
{
    const std::string data = "first\r\nsecond line\n\nfourth";
    const auto lines = collect(stringReader(data), nullptr, 1 << 20, 7);
    QCOMPARE(lines.size(), std::size_t(4));
    const std::uint64_t offsets[] = {0, 7, 19, 20};
    for (std::size_t i = 0; i < lines.size(); ++i) {
        QCOMPARE(lines[i].number, std::uint64_t(i + 1));
        QCOMPARE(lines[i].offset, offsets[i]);
        QCOMPARE(lines[i].fullLength, std::uint64_t(lines[i].bytes.size()));
        QVERIFY(!lines[i].truncated);
    }
}

void TestLineReader::giantLineTruncatedAndResynced_data()
{
    QTest::addColumn<int>("chunk");
    QTest::newRow("chunk 7 (line spans chunks)") << 7;
    QTest::newRow("chunk 1") << 1;
    QTest::newRow("whole line in one chunk") << (1 << 20);
}

void TestLineReader::giantLineTruncatedAndResynced()
{
    QFETCH(int, chunk);
    const std::string giant(100, 'x');
    const std::string data = "short\n" + giant + "\nnext\n" + std::string(10, 'y') + "\n";
    const auto lines = collect(stringReader(data), nullptr, 10, std::size_t(chunk));
    QCOMPARE(lines.size(), std::size_t(4));
    QCOMPARE(lines[1].bytes, std::string(10, 'x'));
    QVERIFY(lines[1].truncated);
    QCOMPARE(lines[1].fullLength, std::uint64_t(100));
    QCOMPARE(lines[1].offset, std::uint64_t(6));
    QCOMPARE(lines[2].bytes, std::string("next"));
    QCOMPARE(lines[2].number, std::uint64_t(3));
    QCOMPARE(lines[2].offset, std::uint64_t(107));
    QVERIFY(!lines[2].truncated);
    QCOMPARE(lines[3].bytes, std::string(10, 'y'));  // exactly maxLine: not truncated
    QVERIFY(!lines[3].truncated);
}

void TestLineReader::truncationAndCarriageReturn()
{
    // The CR of a CRLF ending does not count towards the cap.
    auto lines = collect(stringReader("abcde\r\nabcdef\r\nabcdefgh"), nullptr, 5, 3);
    QCOMPARE(lines.size(), std::size_t(3));
    QCOMPARE(lines[0].bytes, std::string("abcde"));
    QVERIFY(!lines[0].truncated);
    QCOMPARE(lines[1].bytes, std::string("abcde"));
    QVERIFY(lines[1].truncated);
    QCOMPARE(lines[1].fullLength, std::uint64_t(6));
    QVERIFY(lines[2].truncated);  // a truncated final line without newline
    QCOMPARE(lines[2].fullLength, std::uint64_t(8));
    QCOMPARE(lines[2].offset, std::uint64_t(15));
}

void TestLineReader::crAcrossChunkBoundary()
{
    // "abcdef\r" fills the first 7-byte chunk; the "\n" arrives in the next one.
    const auto lines = collect(stringReader("abcdef\r\nxyz\r\n"), nullptr, 1 << 20, 7);
    QCOMPARE(texts(lines), QStringList({"abcdef", "xyz"}));
    QCOMPARE(lines[1].offset, std::uint64_t(8));
}

void TestLineReader::cancellation()
{
    std::string data;
    for (int i = 0; i < 1000; ++i)
        data += "line " + std::to_string(i) + "\n";
    int calls = 0;
    int seen = 0;
    const ReadStats stats = readLines(
        stringReader(data, SIZE_MAX, &calls), [&seen](const RawLine&) { return ++seen < 2; }, 1 << 20, 16);
    QCOMPARE(seen, 2);
    QCOMPARE(stats.lines, std::uint64_t(2));
    QVERIFY(calls <= 2);
    QVERIFY(!stats.error);
}

void TestLineReader::readErrorKeepsPartialLine()
{
    auto served = std::make_shared<bool>(false);
    ReadFn failing = [served](char* buffer, std::size_t capacity) -> long {
        if (*served) {
            errno = EIO;
            return -1;
        }
        *served = true;
        const std::string_view text = "ok\npartial";
        const std::size_t n = std::min(capacity, text.size());
        std::memcpy(buffer, text.data(), n);
        return static_cast<long>(n);
    };
    ReadStats stats;
    const auto lines = collect(failing, &stats);
    QVERIFY(stats.error);
    QCOMPARE(QString::fromStdString(stats.errorText),
             QString::fromStdString(std::error_code(EIO, std::generic_category()).message()));
    QCOMPARE(texts(lines), QStringList({"ok", "partial"}));
    QCOMPARE(stats.bytes, std::uint64_t(10));
}

void TestLineReader::missingReader()
{
    const ReadStats stats = readLines(ReadFn(), [](const RawLine&) { return true; });
    QVERIFY(stats.error);
    QVERIFY(!stats.errorText.empty());
}

void TestLineReader::matchesReferenceOnRandomInput()
{
    std::mt19937 random(20260422);
    const std::string alphabet = "ab \r\n\n\r\t";
    for (int round = 0; round < 300; ++round) {
        std::string data(random() % 200, ' ');
        for (auto& c : data)
            c = alphabet[random() % alphabet.size()];
        const std::size_t maxLine = 1 + random() % 12;
        const std::size_t chunk = 1 + random() % 20;
        const std::size_t piece = 1 + random() % 9;
        const auto got = collect(stringReader(data, piece), nullptr, maxLine, chunk);
        const auto want = reference(data, maxLine);
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].number, want[i].number);
            QCOMPARE(got[i].offset, want[i].offset);
            QCOMPARE(got[i].bytes, want[i].bytes);
            QCOMPARE(got[i].truncated, want[i].truncated);
            QCOMPARE(got[i].fullLength, want[i].fullLength);
        }
    }
}

void TestLineReader::fileReaderReadsFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("big.log").toStdString();
    std::string data;
    for (int i = 0; i < 120000; ++i)  // about 3 MiB: several default-sized chunks
        data += "[ " + std::to_string(i) + ".000000] some kernel message padding padding\r\n";
    std::ofstream(path, std::ios::binary) << data << "tail";
    std::string error = "stale";
    const ReadFn read = fileReader(path, error);
    QVERIFY(read);
    QVERIFY(error.empty());
    ReadStats stats;
    const auto lines = collect(read, &stats);
    QCOMPARE(lines.size(), std::size_t(120001));
    QCOMPARE(stats.bytes, std::uint64_t(data.size() + 4));
    QCOMPARE(lines[1].bytes, std::string("[ 1.000000] some kernel message padding padding"));
    QCOMPARE(lines.back().bytes, std::string("tail"));
    QCOMPARE(lines.back().offset, std::uint64_t(data.size()));
}

void TestLineReader::fileReaderErrors()
{
    QTemporaryDir dir;
    std::string error;
    QVERIFY(!fileReader(dir.filePath("missing.log").toStdString(), error));
    QCOMPARE(QString::fromStdString(error),
             QString::fromStdString(std::error_code(ENOENT, std::generic_category()).message()));
    error.clear();
    QVERIFY(!fileReader(dir.path().toStdString(), error));
    QCOMPARE(QString::fromStdString(error),
             QString::fromStdString(std::error_code(EISDIR, std::generic_category()).message()));
}

void TestLineReader::fileReaderClosesDescriptor()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.log").toStdString();
    std::ofstream(path) << "one\ntwo\n";
    const int before = openFdCount();
    {
        std::string error;
        ReadFn read = fileReader(path, error);
        QVERIFY(read);
        const ReadFn copy = read;  // copies share the descriptor
        QCOMPARE(openFdCount(), before + 1);
        read = nullptr;
        QCOMPARE(texts(collect(copy)), QStringList({"one", "two"}));
    }
    QCOMPARE(openFdCount(), before);
}

QTEST_APPLESS_MAIN(TestLineReader)
#include "tst_line_reader.moc"
