// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/tour/tour.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>

namespace attrib::views {

namespace {

const std::map<QString, TourAction>& actionNames()
{
    static const std::map<QString, TourAction> names = {
        {QStringLiteral("select_root_cause"), TourAction::SelectRootCause},
        {QStringLiteral("select_symptom"), TourAction::SelectSymptom},
        {QStringLiteral("fit_timeline"), TourAction::FitTimeline},
        {QStringLiteral("debugger_first"), TourAction::DebuggerFirst},
        {QStringLiteral("debugger_why"), TourAction::DebuggerWhy},
    };
    return names;
}

bool needsArgument(TourAction a)
{
    return a == TourAction::SelectSymptom || a == TourAction::DebuggerWhy;
}

int lineAt(const QByteArray& text, qsizetype offset)
{
    return static_cast<int>(text.left(std::clamp<qsizetype>(offset, 0, text.size())).count('\n')) + 1;
}

/// The line of the `n`-th (0-based) step object: the n-th '{' after "steps". JSON positions are not kept by
/// QJsonDocument, and step objects are the only objects inside the array.
int stepLine(const QByteArray& text, int n)
{
    qsizetype at = text.indexOf("\"steps\"");
    for (int i = 0; at >= 0 && i <= n; ++i)
        at = text.indexOf('{', at + 1);
    return at < 0 ? 1 : lineAt(text, at);
}

QString fail(const QString& source, int line, const QString& why)
{
    return QStringLiteral("%1:%2: %3").arg(source).arg(line).arg(why);
}

std::optional<TourStep> parseStep(const QJsonValue& value, QString& why)
{
    if (!value.isObject()) {
        why = QStringLiteral("a step must be an object");
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    TourStep step;
    step.target = o.value(QLatin1String("target")).toString();
    step.title = o.value(QLatin1String("title")).toString();
    step.text = o.value(QLatin1String("text")).toString();
    step.argument = o.value(QLatin1String("argument")).toString();
    if (step.target.isEmpty() || step.title.isEmpty() || step.text.isEmpty()) {
        why = QStringLiteral("a step needs \"target\", \"title\" and \"text\" strings");
        return std::nullopt;
    }
    if (const QString action = o.value(QLatin1String("do")).toString(); !action.isEmpty()) {
        const auto it = actionNames().find(action);
        if (it == actionNames().end()) {
            QStringList known;
            for (const auto& [name, a] : actionNames())
                known << name;
            why = QStringLiteral("unknown \"do\": \"%1\" (one of %2)").arg(action, known.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        step.action = it->second;
    }
    if (needsArgument(step.action) && step.argument.isEmpty()) {
        why = QStringLiteral("\"do\": \"%1\" needs an \"argument\" (a symptom name)")
                  .arg(o.value(QLatin1String("do")).toString());
        return std::nullopt;
    }
    return step;
}

}  // namespace

TourParse parseTour(const QByteArray& json, const QString& source)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return {std::nullopt, fail(source, lineAt(json, error.offset), error.errorString())};
    if (!doc.isObject())
        return {std::nullopt, fail(source, 1, QStringLiteral("a tour must be a JSON object"))};
    const QJsonObject o = doc.object();
    Tour tour;
    tour.id = o.value(QLatin1String("id")).toString(QFileInfo(source).completeBaseName());
    tour.title = o.value(QLatin1String("title")).toString();
    tour.summary = o.value(QLatin1String("summary")).toString();
    tour.sample = o.value(QLatin1String("sample")).toString();
    tour.source = source;
    if (tour.title.isEmpty())
        return {std::nullopt, fail(source, 1, QStringLiteral("a tour needs a \"title\""))};
    const QJsonArray steps = o.value(QLatin1String("steps")).toArray();
    if (steps.isEmpty())
        return {std::nullopt, fail(source, 1, QStringLiteral("a tour needs a non-empty \"steps\" array"))};
    for (int i = 0; i < steps.size(); ++i) {
        QString why;
        std::optional<TourStep> step = parseStep(steps.at(i), why);
        if (!step)
            return {std::nullopt, fail(source, stepLine(json, i), QStringLiteral("step %1: %2").arg(i + 1).arg(why))};
        tour.steps << *step;
    }
    return {std::move(tour), {}};
}

QList<Tour> loadTours(const QStringList& dirs, QStringList* problems)
{
    std::map<QString, Tour> byId;
    for (const QString& dir : dirs) {
        const QDir d(dir);
        for (const QString& name : d.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name)) {
            QFile file(d.filePath(name));
            if (!file.open(QIODevice::ReadOnly)) {
                if (problems)
                    *problems << fail(file.fileName(), 1, file.errorString());
                continue;
            }
            TourParse parsed = parseTour(file.readAll(), file.fileName());
            if (parsed.tour)
                byId[parsed.tour->id] = std::move(*parsed.tour);
            else if (problems)
                *problems << parsed.error;
        }
    }
    QList<Tour> out;
    for (auto& [id, tour] : byId)
        out << std::move(tour);
    std::stable_sort(out.begin(), out.end(), [](const Tour& a, const Tour& b) { return a.title < b.title; });
    return out;
}

}  // namespace attrib::views
