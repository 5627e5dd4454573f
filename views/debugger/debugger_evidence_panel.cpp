// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/debugger_evidence_panel.h"

#include "views/presentation.h"

#include <algorithm>
#include <cstdint>

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attrib::views {

namespace {
constexpr int ObservationRole = Qt::UserRole;
constexpr std::size_t MaxLines = 500;
}  // namespace

DebuggerEvidencePanel::DebuggerEvidencePanel(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Select a symptom to list its evidence lines."), this))
    , m_lines(new QTreeWidget(this))
{
    m_title->setTextFormat(Qt::PlainText);
    m_lines->setColumnCount(3);
    m_lines->setHeaderLabels({tr("Line"), tr("Time"), tr("Text")});
    m_lines->setRootIsDecorated(false);
    m_lines->setUniformRowHeights(true);
    m_lines->setContextMenuPolicy(Qt::CustomContextMenu);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_lines, 1);
    connect(m_lines, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem* item) { Q_EMIT lineRequested(item->data(0, ObservationRole).toULongLong()); });
    connect(m_lines, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            Q_EMIT observationSelected(item->data(0, ObservationRole).toULongLong());
    });
    connect(m_lines, &QTreeWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QTreeWidgetItem* item = m_lines->itemAt(pos);
        if (!item)
            return;
        QMenu menu;
        const quint64 id = item->data(0, ObservationRole).toULongLong();
        menu.addAction(tr("Which rules looked at this line?"), this, [this, id] { Q_EMIT lineRequested(id); });
        menu.exec(m_lines->viewport()->mapToGlobal(pos));
    });
}

void DebuggerEvidencePanel::showSymptom(const engine::AnalysisSnapshot& result, const QString& symptomId)
{
    m_lines->clear();
    const engine::Symptom* s = result ? result->symptom(symptomId.toStdString()) : nullptr;
    if (!s) {
        m_title->setText(tr("%1 is not in the final symptom set.").arg(symptomId));
        return;
    }
    m_title->setText(tr("%1: %n evidence line(s)", nullptr,
                        static_cast<int>(std::min<std::uint64_t>(result->evidenceLines(*s), INT32_MAX)))
                         .arg(symptomId));
    QList<QTreeWidgetItem*> items;
    for (std::size_t i = 0; i < s->evidence.size() && i < MaxLines; ++i) {
        const engine::Observation* o = result->observation(s->evidence[i]);
        if (!o)
            continue;
        const QString file = o->source.file < result->files.size() ? qs(result->files[o->source.file].path) : QString();
        auto* item = new QTreeWidgetItem(QStringList{QString(file + QLatin1Char(':') + QString::number(o->source.line)),
                                                     formatUtc(o->time), sanitizeLine(qs(o->text))});
        item->setData(0, ObservationRole, static_cast<qulonglong>(o->id));
        item->setToolTip(2, plainToolTip(qs(o->text)));
        items << item;
    }
    m_lines->addTopLevelItems(items);
    m_lines->resizeColumnToContents(0);
    m_lines->resizeColumnToContents(1);
}

int DebuggerEvidencePanel::lineCount() const
{
    return m_lines->topLevelItemCount();
}

quint64 DebuggerEvidencePanel::observationAt(int row) const
{
    QTreeWidgetItem* item = m_lines->topLevelItem(row);
    return item ? item->data(0, ObservationRole).toULongLong() : 0;
}

}  // namespace attrib::views
