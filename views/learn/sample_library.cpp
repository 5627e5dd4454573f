// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/learn/sample_library.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace attrib::views {

namespace {

struct GroupRule {
    const char* group;
    std::initializer_list<const char*> subDomains;
};

const GroupRule Groups[] = {
    {"GPU and NVLink hardware", {"gpu", "gpu_memory", "nvlink", "nvswitch", "power_thermal"}},
    {"Network and NCCL", {"network", "comm_library"}},
    {"Host, memory and storage", {"host", "storage", "oom"}},
    {"Application and configuration", {"application", "configuration", "container"}},
    {"Scheduler and job lifecycle", {"scheduler"}},
};
const char* const AmbiguousGroup = "When the evidence cannot decide";
const char* const OtherGroup = "Other";

/// 1-based line of a byte offset, for a JSON error that names file:line.
int lineOf(const QByteArray& text, std::size_t offset)
{
    const auto end = static_cast<qsizetype>(std::min<std::size_t>(offset, static_cast<std::size_t>(text.size())));
    return static_cast<int>(text.left(end).count('\n')) + 1;
}

QString jsonString(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

QString lessonTitle(const QString& lesson, const QString& fallback)
{
    for (const QString& line : lesson.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1String("# ")))
            continue;
        QString title = line.mid(2).trimmed();
        if (title.startsWith(QLatin1String("Lesson: ")))
            title = title.mid(8);
        if (!title.isEmpty())
            title[0] = title[0].toUpper();
        return title;
    }
    return fallback;
}

/// One sample, or the reason it cannot be read.
bool readSample(const QDir& folder, SampleInfo& out, QString& problem)
{
    const QString expectedPath = folder.filePath(QStringLiteral("expected.json"));
    QFile file(expectedPath);
    if (!file.open(QIODevice::ReadOnly)) {
        problem = expectedPath + QStringLiteral(":1: cannot read: ") + file.errorString();
        return false;
    }
    const QByteArray bytes = file.readAll();
    try {
        out.expected = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const nlohmann::json::parse_error& e) {
        problem =
            QStringLiteral("%1:%2: %3").arg(expectedPath).arg(lineOf(bytes, e.byte)).arg(QString::fromUtf8(e.what()));
        return false;
    }
    if (!out.expected.is_object()) {
        problem = expectedPath + QStringLiteral(":1: expected a JSON object");
        return false;
    }
    out.name = folder.dirName();
    out.path = folder.absolutePath();
    out.description = jsonString(out.expected, "description");
    out.terminalState = jsonString(out.expected, "terminal_state");
    out.subDomain = jsonString(out.expected, "sub_domain");
    if (const auto rc = out.expected.find("root_cause"); rc != out.expected.end() && rc->is_object()) {
        out.rootSymptom = jsonString(*rc, "symptom");
        out.rootNode = jsonString(*rc, "node");
        if (const auto gpu = rc->find("gpu"); gpu != rc->end() && gpu->is_number_integer())
            out.rootGpu = gpu->get<int>();
    }
    QFile lesson(folder.filePath(QStringLiteral("LESSON.md")));
    if (lesson.open(QIODevice::ReadOnly))
        out.lesson = QString::fromUtf8(lesson.readAll());
    out.title = lessonTitle(out.lesson, out.name);
    out.group = sampleGroup(out.terminalState, out.subDomain);
    return true;
}

}  // namespace

QStringList sampleGroups()
{
    QStringList out;
    for (const GroupRule& g : Groups)
        out << QString::fromLatin1(g.group);
    out << QString::fromLatin1(AmbiguousGroup) << QString::fromLatin1(OtherGroup);
    return out;
}

QString sampleGroup(const QString& terminalState, const QString& subDomain)
{
    if (terminalState == QLatin1String("ambiguous"))
        return QString::fromLatin1(AmbiguousGroup);
    for (const GroupRule& g : Groups) {
        for (const char* s : g.subDomains) {
            if (subDomain == QLatin1String(s))
                return QString::fromLatin1(g.group);
        }
    }
    return QString::fromLatin1(OtherGroup);
}

QString verdictSummary(const QString& terminalState, const QString& subDomain, const QString& node, int gpu)
{
    QString text = QString(terminalState).replace(QLatin1Char('_'), QLatin1Char(' ')) + QStringLiteral(" / ") +
        (subDomain.isEmpty() ? QStringLiteral("?") : subDomain);
    if (!node.isEmpty())
        text += QStringLiteral(" on ") + node;
    if (gpu >= 0)
        text += QStringLiteral(" GPU %1").arg(gpu);
    return text;
}

SampleLibrary loadSampleLibrary(const QString& dir)
{
    SampleLibrary library;
    const QDir root(dir);
    for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir folder(root.filePath(name));
        if (!folder.exists(QStringLiteral("expected.json")))
            continue;  // generators and other helpers live beside the samples
        SampleInfo info;
        QString problem;
        if (readSample(folder, info, problem))
            library.samples << info;
        else
            library.problems << problem;
    }
    const QStringList order = sampleGroups();
    std::stable_sort(library.samples.begin(), library.samples.end(),
                     [&order](const SampleInfo& a, const SampleInfo& b) {
                         const auto ga = order.indexOf(a.group);
                         const auto gb = order.indexOf(b.group);
                         return ga != gb ? ga < gb : a.title.compare(b.title, Qt::CaseInsensitive) < 0;
                     });
    return library;
}

}  // namespace attrib::views
