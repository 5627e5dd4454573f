// SPDX-License-Identifier: GPL-3.0-or-later
// The annotated samples a newcomer learns from: each bundle folder with an expected.json (the verdict the lesson
// teaches) and a LESSON.md, read once and grouped by failure domain for the Learn panel and the welcome page.
#pragma once

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>
#include <QStringList>

namespace attrib::views {

struct SampleInfo {
    QString name;    ///< folder name: "nvlink-xid149"
    QString path;    ///< absolute folder path
    QString title;   ///< the lesson's first heading without "Lesson: "
    QString lesson;  ///< LESSON.md as Markdown (empty when the sample has none)
    QString description;
    QString terminalState;  ///< expected
    QString subDomain;      ///< expected
    QString rootSymptom;    ///< expected root cause (may be empty)
    QString rootNode;
    int rootGpu = -1;
    QString group;  ///< failure-domain group shown in the Learn panel
    nlohmann::json expected;
};

struct SampleLibrary {
    QList<SampleInfo> samples;  ///< sorted by group order, then title
    QStringList problems;       ///< "file:line: reason" for each sample that could not be read
};

/// Reads every `<dir>/<name>/expected.json` (and LESSON.md beside it).
SampleLibrary loadSampleLibrary(const QString& dir);

/// The failure-domain group of a verdict: "GPU and NVLink hardware", "Network and NCCL", ...
QString sampleGroup(const QString& terminalState, const QString& subDomain);
/// The groups in display order.
QStringList sampleGroups();

/// "hardware failure / nvlink on node-02 GPU 3" (root cause part only when known).
QString verdictSummary(const QString& terminalState, const QString& subDomain, const QString& node = {}, int gpu = -1);

}  // namespace attrib::views
