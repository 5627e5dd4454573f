// SPDX-License-Identifier: GPL-3.0-or-later
// Text saved as UTF-16 (Windows PowerShell's `>`, Out-File) is readable text: told from binary by its byte-order
// mark or its zero bytes, read as UTF-8 by the importer and by the evidence viewer alike, never skipped.
#include "importer_test_util.h"

#include "importers/bundle_access.h"
#include "importers/utf16_text.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;

namespace {

/// `text` (ASCII or UTF-8 of the Basic Multilingual Plane and beyond) as UTF-16 with a byte-order mark.
std::string utf16(const std::u16string& text, bool littleEndian, bool mark = true)
{
    std::string out;
    const auto put = [&](char16_t u) {
        const char lo = static_cast<char>(u & 0xFF);
        const char hi = static_cast<char>(u >> 8);
        out += littleEndian ? lo : hi;
        out += littleEndian ? hi : lo;
    };
    if (mark)
        put(0xFEFF);
    for (const char16_t u : text)
        put(u);
    return out;
}

std::string readThrough(const std::string& bytes, Utf16Order order, std::size_t step)
{
    const ReadFn read = utf16Reader(tests::stringReader(bytes, step), order);
    std::string out;
    char buffer[7];
    for (long n; (n = read(buffer, sizeof buffer)) > 0;)
        out.append(buffer, static_cast<std::size_t>(n));
    return out;
}

}  // namespace

class TestUtf16Text : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void byteOrder()
    {
        QCOMPARE(utf16Order(utf16(u"x", true)), Utf16Order::LittleEndian);
        QCOMPARE(utf16Order(utf16(u"x", false)), Utf16Order::BigEndian);
        QCOMPARE(utf16Order(utf16(u"RuntimeError: CUDA error", true, false)), Utf16Order::LittleEndian);
        QCOMPARE(utf16Order(utf16(u"RuntimeError: CUDA error", false, false)), Utf16Order::BigEndian);
        QCOMPARE(utf16Order("RuntimeError: CUDA error: an illegal memory access"), Utf16Order::None);
        std::string binary;
        for (int i = 0; i < 64; ++i)
            binary += static_cast<char>((i * 37) & 0xFF);
        QCOMPARE(utf16Order(binary), Utf16Order::None);
    }

    void transcodes()
    {
        // é, a CJK ideograph and a character beyond the BMP (a surrogate pair), read a few bytes at a time.
        const std::string le = utf16(u"caf\u00e9 \u542f \U0001F600 ok\n", true);
        const std::string expected = "caf\xc3\xa9 \xe5\x90\xaf \xf0\x9f\x98\x80 ok\n";
        QCOMPARE(readThrough(le, Utf16Order::LittleEndian, 3), expected);
        QCOMPARE(readThrough(utf16(u"caf\u00e9 \u542f \U0001F600 ok\n", false), Utf16Order::BigEndian, 5), expected);
        // A lone high surrogate and a lone last byte become U+FFFD.
        std::string broken = utf16(u"a", true, false) + std::string("\x00\xd8", 2) + "b";
        QCOMPARE(readThrough(broken, Utf16Order::LittleEndian, 1), std::string("a\xef\xbf\xbd\xef\xbf\xbd"));
    }

    void powershellOutputIsAnalysed()
    {
        const std::string text = utf16(u"RuntimeError: CUDA error: an illegal memory access was encountered\r\n"
                                       u"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\r\n",
                                       true);
        const auto outcome = tests::analyzeOneFile("train.log", text);
        QVERIFY2(outcome.result, outcome.error.c_str());
        QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("application"));
        bool noted = false;
        for (const auto& c : outcome.result->coverage)
            for (const auto& e : c.errors)
                noted = noted || e.find("UTF-16 text (little-endian) read as UTF-8") != std::string::npos;
        QVERIFY(noted);
    }

    void evidenceReadsTheSameText()
    {
        // The viewer re-reads a record by the importer's offsets: both see the UTF-8 text.
        QTemporaryDir dir;
        const std::filesystem::path path = std::filesystem::path(dir.path().toStdString()) / "train.log";
        const std::string bytes = utf16(u"first line\nNCCL WARN Call to ibv_create_qp failed\n", true);
        tests::writeFile(path, bytes);
        engine::BundleFile file;
        file.path = "train.log";
        file.absolutePath = path.string();
        file.size = bytes.size();
        std::string error;
        QCOMPARE(readBundleBytes(file, 11, 38, error), std::string("NCCL WARN Call to ibv_create_qp failed"));
        QVERIFY(error.empty());
    }
};

QTEST_GUILESS_MAIN(TestUtf16Text)
#include "tst_utf16_text.moc"
