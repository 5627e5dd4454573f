// SPDX-License-Identifier: GPL-3.0-or-later
// A Jupyter notebook is read as what its cells printed: stream text, an error's traceback (colour codes taken off)
// and results, each at its own line of the file; the cells' source code and the JSON around are not evidence.
#include "importer_test_util.h"

#include "importers/notebook_lines.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;

namespace {

const char* const Notebook =
    "{\n"
    " \"cells\": [\n"
    "  {\n"
    "   \"cell_type\": \"code\",\n"
    "   \"execution_count\": 3,\n"
    "   \"metadata\": {},\n"
    "   \"outputs\": [\n"
    "    {\n"
    "     \"name\": \"stderr\",\n"
    "     \"output_type\": \"stream\",\n"
    "     \"text\": [\n"
    "      \"[rank1]: Traceback (most recent call last):\\n\",\n"
    "      \"[rank1]:   File \\\"/work/train.py\\\", line 12, in <module>\\n\",\n"
    "      \"[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total "
    "capacity of 79.15 GiB of which 1.2 GiB is free.\\n\"\n"
    "     ]\n"
    "    },\n"
    "    {\n"
    "     \"ename\": \"ChildFailedError\",\n"
    "     \"evalue\": \"train.py FAILED\",\n"
    "     \"output_type\": \"error\",\n"
    "     \"traceback\": [\n"
    "      \"\\u001b[0;31mChildFailedError\\u001b[0m: train.py FAILED\"\n"
    "     ]\n"
    "    }\n"
    "   ],\n"
    "   \"source\": [\n"
    "    \"# catch \\\"RuntimeError: CUDA error: an illegal memory access was encountered\\\" here\\n\",\n"
    "    \"!torchrun --nproc_per_node=2 train.py\"\n"
    "   ]\n"
    "  }\n"
    " ],\n"
    " \"metadata\": {},\n"
    " \"nbformat\": 4,\n"
    " \"nbformat_minor\": 5\n"
    "}\n"
    "\n";

}  // namespace

class TestNotebookLines : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recognised()
    {
        QVERIFY(detail::isNotebook(Notebook, "debug.json"));
        QVERIFY(detail::isNotebook("{}", "run.ipynb"));
        QVERIFY(!detail::isNotebook(R"({"items": [{"kind": "Pod"}]})", "pods.json"));
    }

    void outputsAreReadAtTheirLines()
    {
        const auto r = tests::readAll(Notebook, "train.ipynb");
        QVERIFY(r.sniffed.notebook);
        const Record* oom = tests::findText(r.records, "torch.OutOfMemoryError: CUDA out of memory");
        QVERIFY(oom);
        QCOMPARE(oom->rank, 1);
        QCOMPARE(oom->line, std::uint64_t(12));  // the file line its traceback starts on
        QVERIFY(tests::findText(r.records, "ChildFailedError: train.py FAILED"));  // colour codes gone
        for (const auto& rec : r.records) {
            QVERIFY2(rec.text.find("illegal memory access") == std::string::npos, rec.text.c_str());  // source code
            QVERIFY2(rec.text.find("output_type") == std::string::npos, rec.text.c_str());            // structure
        }
    }

    void analysedAsTheJobsOutput()
    {
        const auto outcome = tests::analyzeOneFile("train.ipynb", Notebook);
        QVERIFY2(outcome.result, outcome.error.c_str());
        QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("oom"));
    }
};

QTEST_APPLESS_MAIN(TestNotebookLines)
#include "tst_notebook_lines.moc"
