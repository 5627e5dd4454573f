// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/step_details_model.h"

#include "engine/trace_why.h"
#include "views/presentation.h"

#include <QColor>
#include <QFont>

namespace attrib::views {

namespace {

constexpr quintptr TopLevel = 0;
constexpr std::size_t MaxEventRows = 50;

QString changeText(const engine::SymptomChange& c)
{
    QString text = qs(engine::toString(c.kind));
    if (c.kind != engine::SymptomChange::Kind::Added)
        text += QStringLiteral(" (") + qs(engine::toString(c.from)) + QStringLiteral(" \u2192 ") +
            qs(engine::toString(c.to)) + QLatin1Char(')');
    if (!c.reason.empty())
        text += QStringLiteral(": ") + qs(c.reason);
    return text;
}

}  // namespace

StepDetailsModel::StepDetailsModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void StepDetailsModel::setStep(const ReplayPtr& replay, int step)
{
    beginResetModel();
    m_step = step;
    m_sections.clear();
    if (replay && step >= 0 && static_cast<std::size_t>(step) < replay->stepCount())
        build(*replay, replay->step(static_cast<std::size_t>(step)));
    endResetModel();
}

void StepDetailsModel::build(const engine::TraceReplay& replay, const engine::TraceStep& step)
{
    Section head{tr("Step"), {}};
    head.rows.push_back({tr("index"), QString::number(step.index), {}, {}});
    head.rows.push_back({tr("phase"), qs(toString(step.phase)), {}, {}});
    head.rows.push_back({tr("rule"), qs(step.rule), {}, {}});
    head.rows.push_back({tr("action"), qs(toString(step.action)), {}, {}});
    head.rows.push_back({tr("fired"), step.fired ? tr("yes") : tr("no (recorded evaluation)"), {}, {}});
    head.rows.push_back({tr("summary"), qs(step.summary), {}, {}});
    m_sections.push_back(std::move(head));
    addBinding(replay.result(), step);
    Section conditions{tr("Conditions and captures"), {}};
    for (const auto& c : engine::conditionsOf(step)) {
        const bool isSymptom = c.name == "cause" || c.name == "target";
        conditions.rows.push_back({qs(c.name), qs(c.value), c.holds, isSymptom ? qs(c.value) : QString()});
    }
    if (!conditions.rows.empty())
        m_sections.push_back(std::move(conditions));
    Section changes{tr("Changes"), {}};
    for (const auto& c : step.changes)
        changes.rows.push_back({qs(c.symptom), changeText(c), {}, qs(c.symptom)});
    if (!changes.rows.empty())
        m_sections.push_back(std::move(changes));
    addEvents(replay.result(), step);
}

void StepDetailsModel::addBinding(const engine::AnalysisResult&, const engine::TraceStep& step)
{
    Section bound{tr("Bound"), {}};
    if (!step.node.empty())
        bound.rows.push_back({tr("node"), qs(step.node), {}, {}});
    if (step.gpu >= 0)
        bound.rows.push_back({tr("GPU"), QString::number(step.gpu), {}, {}});
    if (!step.link.empty())
        bound.rows.push_back({tr("link"), qs(step.link), {}, {}});
    if (step.windowStart != engine::NoTime)
        bound.rows.push_back({tr("window start"), formatUtc(step.windowStart), {}, {}});
    if (step.windowEnd != engine::NoTime)
        bound.rows.push_back({tr("window end"), formatUtc(step.windowEnd), {}, {}});
    if (!bound.rows.empty())
        m_sections.push_back(std::move(bound));
}

void StepDetailsModel::addEvents(const engine::AnalysisResult& result, const engine::TraceStep& step)
{
    if (step.events.empty())
        return;
    Section events{tr("Events (%1)").arg(step.events.size()), {}};
    for (std::size_t i = 0; i < step.events.size() && i < MaxEventRows; ++i) {
        const engine::Event* e = result.event(step.events[i]);
        QString text = e ? QString(qs(e->type) + QStringLiteral(" on ") + placeText(e->node, e->gpu, e->rank) +
                                   QStringLiteral(" at ") + formatUtc(e->time))
                         : tr("no such event");
        events.rows.push_back({QStringLiteral("#") + QString::number(step.events[i]), text, {}, {}});
    }
    if (step.events.size() > MaxEventRows)
        events.rows.push_back({QStringLiteral("\u2026"), tr("%1 more").arg(step.events.size() - MaxEventRows), {}, {}});
    m_sections.push_back(std::move(events));
}

QString StepDetailsModel::value(const QString& section, const QString& key) const
{
    for (const auto& s : m_sections)
        if (s.title.startsWith(section))
            for (const auto& r : s.rows)
                if (r.key == key)
                    return r.value;
    return {};
}

QModelIndex StepDetailsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_sections.size()) ? createIndex(row, column, TopLevel) : QModelIndex();
    if (parent.internalId() != TopLevel || parent.column() != 0)
        return {};
    const auto& rows = m_sections[static_cast<std::size_t>(parent.row())].rows;
    return row < static_cast<int>(rows.size()) ? createIndex(row, column, static_cast<quintptr>(parent.row()) + 1)
                                               : QModelIndex();
}

QModelIndex StepDetailsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == TopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, TopLevel);
}

int StepDetailsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_sections.size());
    if (parent.internalId() != TopLevel || parent.column() != 0)
        return 0;
    return static_cast<int>(m_sections[static_cast<std::size_t>(parent.row())].rows.size());
}

int StepDetailsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant StepDetailsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == TopLevel) {
        if (role == Qt::DisplayRole && index.column() == KeyColumn)
            return m_sections[static_cast<std::size_t>(index.row())].title;
        if (role == Qt::FontRole) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    }
    const auto& row = m_sections[index.internalId() - 1].rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == KeyColumn)
            return row.holds ? QString(row.key + (*row.holds ? QStringLiteral("  \u2714") : QStringLiteral("  \u2718")))
                             : row.key;
        return row.value;
    case Qt::ToolTipRole: return plainToolTip(row.value);
    case Qt::ForegroundRole:
        if (row.holds)
            return *row.holds ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
        return {};
    case HoldsRole: return row.holds ? QVariant(*row.holds) : QVariant();
    case SymptomIdRole: return row.symptom.isEmpty() ? QVariant() : QVariant(row.symptom);
    }
    return {};
}

QVariant StepDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("What") : tr("Value");
}

}  // namespace attrib::views
