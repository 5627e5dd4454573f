// SPDX-License-Identifier: GPL-3.0-or-later
// Guided tours as data: one JSON file per tour (resources/tours/*.json, plus the user's own), each a list of
// steps that name the widget they talk about (its objectName) and, optionally, one thing to do first (select
// the root cause, select a symptom, ...). Loading checks the vocabulary; a bad file is reported by file:line.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace attrib::views {

/// What a step does before it highlights its target.
enum class TourAction {
    None,
    SelectRootCause,  ///< select the verdict's root-cause symptom (the evidence shows its decisive line)
    SelectSymptom,    ///< select the first symptom named `argument` (the evidence shows its lines)
    FitTimeline,      ///< fit the timeline to the failure window
    DebuggerFirst,    ///< put the rule debugger on its first step
    DebuggerWhy,      ///< ask the rule debugger why symptom `argument` has its status
};

struct TourStep {
    QString target;  ///< objectName of the widget to highlight (a dock's content is shown and raised first)
    QString title;
    QString text;
    TourAction action = TourAction::None;
    QString argument;
};

struct Tour {
    QString id;  ///< file name without .json
    QString title;
    QString summary;
    QString sample;  ///< sample folder name the tour opens first (empty: the current bundle)
    QList<TourStep> steps;
    QString source;  ///< file it came from
};

struct TourParse {
    std::optional<Tour> tour;
    QString error;  ///< "file:line: reason" when `tour` is empty
};

/// Parses one tour file's text; `source` names it in errors and `id` defaults to its base name.
TourParse parseTour(const QByteArray& json, const QString& source);

/// Every *.json tour in `dirs` (later folders' tours replace earlier ones of the same id), sorted by title;
/// unreadable files go to `problems`.
QList<Tour> loadTours(const QStringList& dirs, QStringList* problems = nullptr);

}  // namespace attrib::views
