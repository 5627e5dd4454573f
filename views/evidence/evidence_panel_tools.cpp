// SPDX-License-Identifier: GPL-3.0-or-later
// EvidencePanel as a log viewer: keyboard actions, context menu, bookmarks, merged time-ordered views,
// go to time, the culprit's log, skipped files.
#include "views/coverage/coverage_summary.h"
#include "views/evidence/evidence_panel.h"
#include "views/evidence/find_bar.h"
#include "views/presentation.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>

#include <algorithm>

namespace attrib::views {

using namespace attrib::engine;

QAction* EvidencePanel::addKeyAction(const QString& text, const QString& keys, Qt::ShortcutContext context)
{
    auto* action = new QAction(text, this);
    action->setShortcut(QKeySequence(keys));
    action->setShortcutContext(context);
    addAction(action);
    m_actions.append(action);
    return action;
}

void EvidencePanel::buildActions()
{
    connect(&m_countWatcher, &QFutureWatcher<QVector<qint64>>::resultsReadyAt, this, [this](int begin, int end) {
        for (int i = begin; i < end; ++i)
            m_findCount += m_countWatcher.resultAt(i).size();
    });
    connect(&m_countWatcher, &QFutureWatcher<QVector<qint64>>::finished, this, [this] {
        if (m_countWatcher.isCanceled())
            return;
        const qint64 row = m_view->currentRow();
        const QString at = row >= 0 && !m_view->findMatches(row).isEmpty()
            ? QStringLiteral("at line %1 \u00b7 ").arg(m_view->rowLine(row) + 1)
            : QString();
        m_find->setStatus(m_findCount == 0 ? QStringLiteral("no match")
                                           : at + QStringLiteral("%1 line(s)").arg(m_findCount),
                          m_findCount == 0);
    });
    constexpr auto Pane = Qt::WidgetWithChildrenShortcut;
    connect(addKeyAction(QStringLiteral("Find in evidence\u2026"), QStringLiteral("Ctrl+F"), Qt::WindowShortcut),
            &QAction::triggered, m_find, &FindBar::activate);
    connect(addKeyAction(QStringLiteral("Find next"), QStringLiteral("F3"), Pane), &QAction::triggered, m_find,
            &FindBar::findNext);
    connect(addKeyAction(QStringLiteral("Find previous"), QStringLiteral("Shift+F3"), Pane), &QAction::triggered,
            m_find, &FindBar::findPrevious);
    connect(addKeyAction(QStringLiteral("Copy lines"), QStringLiteral("Ctrl+C"), Pane), &QAction::triggered, this,
            [this] { m_view->copySelection(false); });
    connect(addKeyAction(QStringLiteral("Copy lines with file:line"), QStringLiteral("Ctrl+Alt+C"), Pane),
            &QAction::triggered, this, [this] { m_view->copySelection(true); });
    connect(addKeyAction(QStringLiteral("Toggle bookmark"), QStringLiteral("Ctrl+M"), Pane), &QAction::triggered,
            m_view, &EvidenceTextView::toggleBookmark);
    connect(addKeyAction(QStringLiteral("Next bookmark"), QStringLiteral("F2"), Pane), &QAction::triggered, this,
            [this] { m_view->nextBookmark(false); });
    connect(addKeyAction(QStringLiteral("Previous bookmark"), QStringLiteral("Shift+F2"), Pane), &QAction::triggered,
            this, [this] { m_view->nextBookmark(true); });
    connect(addKeyAction(QStringLiteral("Go to line or time"), QStringLiteral("Ctrl+G"), Pane), &QAction::triggered,
            this, [this] {
                m_goto->setFocus(Qt::ShortcutFocusReason);
                m_goto->selectAll();
            });
    QAction* merged =
        addKeyAction(QStringLiteral("Whole job in time order"), QStringLiteral("Ctrl+Shift+J"), Qt::WindowShortcut);
    connect(merged, &QAction::triggered, this, [this] { showMerged({}, true); });
    QAction* culprit = addKeyAction(QStringLiteral("Culprit's log at the root-cause time"), QStringLiteral("Ctrl+J"),
                                    Qt::WindowShortcut);
    connect(culprit, &QAction::triggered, this, &EvidencePanel::showCulpritLog);
    m_culpritButton->setToolTip(QStringLiteral("Open the root cause's own log (its rank or node) at the root-cause "
                                               "time (Ctrl+J)"));
}

void EvidencePanel::updateFindStatus()
{
    const LineQuery q = m_find->query();
    const LineMatcher matcher(q);
    if (!matcher.isValid()) {
        m_find->setStatus(QStringLiteral("bad expression"), true);
        return;
    }
    m_countWatcher.cancel();
    if (q.isEmpty()) {
        m_find->setStatus(QString());
        return;
    }
    const qint64 row = m_view->currentRow();
    const QString at = row >= 0 && matcher.hits(m_view->rowText(row))
        ? QStringLiteral("at line %1 \u00b7 ").arg(m_view->rowLine(row) + 1)
        : QString();
    if (m_view->isFileMode() && m_view->filterText().isEmpty() && m_source && m_view->file() >= 0) {
        m_find->setStatus(at + QStringLiteral("counting\u2026"));
        m_findCount = 0;
        m_countWatcher.setFuture(m_source->findLines(m_view->file(), q));
        return;
    }
    qint64 count = 0;
    for (qint64 r = 0; r < m_view->rowCount(); ++r)
        count += matcher.hits(m_view->rowText(r));
    m_find->setStatus(count == 0 ? QStringLiteral("no match") : at + QStringLiteral("%1 line(s)").arg(count),
                      count == 0);
}

QString EvidencePanel::skippedReason(int file) const
{
    if (!m_analysis || file < 0 || file >= static_cast<int>(m_analysis->r().fileCoverage.size()))
        return {};
    const FileCoverage& cov = m_analysis->r().fileCoverage[static_cast<std::size_t>(file)];
    if (cov.status != CoverageStatus::Skipped || cov.role != FileRole::Evidence)
        return {};  // read, or readable text that is not evidence (a sample's metadata)
    return coverageReason(cov);
}

void EvidencePanel::buildContextMenu(qint64 row, const QPoint& globalPos)
{
    QMenu menu(this);
    for (QAction* a : std::as_const(m_actions)) {
        if (a->text().startsWith(QStringLiteral("Copy")))
            menu.addAction(a);
    }
    menu.addAction(QStringLiteral("Copy as Markdown quote"), this,
                   [this] { QApplication::clipboard()->setText(m_view->selectedMarkdown()); });
    menu.addSeparator();
    const int file = m_view->rowFile(row);
    const qint64 line = m_view->rowLine(row);
    QAction* mark = menu.addAction(m_view->isBookmarked(file, line) ? QStringLiteral("Remove bookmark")
                                                                    : QStringLiteral("Bookmark this line"),
                                   m_view, &EvidenceTextView::toggleBookmark);
    mark->setShortcut(QKeySequence(QStringLiteral("Ctrl+M")));
    const std::vector<int> obs = m_view->rowObservations(row);
    QAction* onTimeline = menu.addAction(QStringLiteral("Show on timeline"), this,
                                         [this, o = obs.empty() ? -1 : obs[0]] { m_selection->selectObservation(o); });
    onTimeline->setEnabled(!obs.empty());
    menu.addSeparator();
    const std::string node = !obs.empty() ? m_analysis->r().observations[static_cast<std::size_t>(obs[0])].node.str()
        : (m_analysis && file >= 0 && file < static_cast<int>(m_analysis->r().fileCoverage.size()))
        ? m_analysis->r().fileCoverage[static_cast<std::size_t>(file)].node
        : std::string();
    const int rank = !obs.empty() ? m_analysis->r().observations[static_cast<std::size_t>(obs[0])].rank : -1;
    menu.addAction(node.empty() ? QStringLiteral("This node (unknown node)")
                                : QStringLiteral("Only ") + qs(node) + QStringLiteral(", all files in time order"),
                   this, [this, node] { showMerged(node, false); })
        ->setEnabled(!node.empty());
    QAction* byRank = menu.addAction(QStringLiteral("Only rank %1, in time order").arg(rank), this, [this, rank] {
        m_view->showRows(timeOrderedRows({}, true, rank));
        setHeader(QStringLiteral("Rank %1 \u2014 evidence lines in time order").arg(rank), QString(), -1);
    });
    byRank->setVisible(rank >= 0);
    menu.exec(globalPos);
}

QStringList EvidencePanel::bookmarkList()
{
    QStringList out;
    if (!m_source)
        return out;
    for (const auto& [file, line] : m_view->bookmarks()) {
        const QString text = sanitizeLine(m_source->readLines(file, line, 1).value(0)).left(90);
        out << QStringLiteral("%1:%2  %3").arg(m_source->filePath(file)).arg(line + 1).arg(text);
    }
    return out;
}

void EvidencePanel::rebuildBookmarkMenu()
{
    m_bookmarkMenu->clear();
    for (QAction* a : std::as_const(m_actions)) {
        if (a->text().contains(QStringLiteral("bookmark")))
            m_bookmarkMenu->addAction(a);
    }
    m_bookmarkMenu->addSeparator();
    const QStringList rows = bookmarkList();
    int i = 0;
    for (const auto& [file, line] : m_view->bookmarks()) {
        m_bookmarkMenu->addAction(rows.value(i++), this, [this, file = file, line = line] { showFile(file, line); });
    }
    if (rows.isEmpty())
        m_bookmarkMenu->addAction(QStringLiteral("(no bookmarks yet: Ctrl+M on a line)"))->setEnabled(false);
}

void EvidencePanel::rebuildMergedMenu()
{
    m_mergedMenu->clear();
    if (!m_analysis) {
        m_mergedMenu->addAction(QStringLiteral("(no analysis yet)"))->setEnabled(false);
        return;
    }
    for (QAction* a : std::as_const(m_actions)) {
        if (a->text() == QStringLiteral("Whole job in time order"))
            m_mergedMenu->addAction(a);
    }
    m_mergedMenu->addSeparator();
    std::vector<std::string> nodes;
    for (const auto& o : m_analysis->r().observations) {
        if (!o.node.empty() && std::find(nodes.begin(), nodes.end(), o.node) == nodes.end())
            nodes.push_back(o.node);
    }
    std::sort(nodes.begin(), nodes.end());
    for (const std::string& node : nodes)
        m_mergedMenu->addAction(qs(node) + QStringLiteral(": all files in time order"), this,
                                [this, node] { showMerged(node, false); });
}

QVector<EvidenceTextView::ListRow> EvidencePanel::timeOrderedRows(const std::string& node, bool wholeJob,
                                                                  int rank) const
{
    QVector<EvidenceTextView::ListRow> rows;
    if (!m_analysis)
        return rows;
    const auto& obs = m_analysis->r().observations;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < obs.size(); ++i) {
        if ((wholeJob || obs[i].node == node) && (rank < 0 || obs[i].rank == rank))
            order.push_back(i);
    }
    // Time order; lines without a time go last, in file order.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto ta = obs[a].time == NoTime ? std::numeric_limits<TimeNs>::max() : obs[a].time;
        const auto tb = obs[b].time == NoTime ? std::numeric_limits<TimeNs>::max() : obs[b].time;
        if (ta != tb)
            return ta < tb;
        return std::tie(obs[a].source.file, obs[a].source.line) < std::tie(obs[b].source.file, obs[b].source.line);
    });
    for (std::size_t i : order)
        rows.append(
            {static_cast<int>(obs[i].source.file), static_cast<qint64>(obs[i].source.line) - 1, static_cast<int>(i)});
    return rows;
}

void EvidencePanel::showMerged(const std::string& node, bool wholeJob)
{
    const auto rows = timeOrderedRows(node, wholeJob, -1);
    m_view->showRows(rows);
    selectFileInCombo(-1);
    m_openInFile->setEnabled(!rows.isEmpty());
    setHeader((wholeJob ? QStringLiteral("Whole job") : qs(node)) +
                  QStringLiteral(" \u2014 %1 evidence line(s) of all files in time order").arg(rows.size()),
              QStringLiteral("Times as the analysis corrected them. Double-click or Enter opens a line in its file."),
              -1);
}

namespace {

/// Parses "21:34:20[.5]" (on the day of `reference`) or "2026-04-22[ T]21:34:20[.5]" as UTC.
TimeNs parseTime(const QString& text, TimeNs reference)
{
    QString t = text.trimmed();
    t.replace(QLatin1Char('T'), QLatin1Char(' '));
    if (!t.contains(QLatin1Char('-')) && reference != NoTime)
        t = formatUtc(reference).left(10) + QLatin1Char(' ') + t;
    TimeNs fraction = 0;
    if (const qsizetype dot = t.indexOf(QLatin1Char('.')); dot >= 0) {
        const QString digits = t.mid(dot + 1).left(9).leftJustified(9, QLatin1Char('0'));
        bool ok = false;
        fraction = digits.toLongLong(&ok);
        if (!ok)
            return NoTime;
        t.truncate(dot);
    }
    for (const char* format : {"yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"}) {
        const QDateTime local = QDateTime::fromString(t, QLatin1String(format));
        if (local.isValid()) {
            const QDateTime utc(local.date(), local.time(), Qt::UTC);
            return static_cast<TimeNs>(utc.toSecsSinceEpoch()) * NsPerSec + fraction;
        }
    }
    return NoTime;
}

}  // namespace

bool EvidencePanel::goToTime(const QString& text)
{
    if (!m_analysis)
        return false;
    const auto& r = m_analysis->r();
    const TimeNs reference = r.verdict.rootCause ? r.verdict.rootCause->time : NoTime;
    const TimeNs target = parseTime(text, reference);
    if (target == NoTime)
        return false;
    qint64 best = -1;
    TimeNs bestTime = NoTime;
    for (qint64 row = 0; row < m_view->rowCount(); ++row) {
        for (int o : m_view->rowObservations(row)) {
            const TimeNs t = r.observations[static_cast<std::size_t>(o)].time;
            if (t != NoTime && t >= target && (bestTime == NoTime || t < bestTime)) {
                best = row;
                bestTime = t;
            }
        }
        if (!m_view->isFileMode() && best >= 0)
            break;  // list rows are in time order in merged views; the first hit is it
    }
    if (best < 0)
        return false;
    m_view->setCurrentRow(best);
    return true;
}

bool EvidencePanel::showCulpritLog()
{
    if (!m_analysis || !m_analysis->r().verdict.rootCause || m_analysis->rootCauseSymptom < 0)
        return false;
    const auto& r = m_analysis->r();
    const auto& root = *r.verdict.rootCause;
    const Symptom& s = r.symptoms[static_cast<std::size_t>(m_analysis->rootCauseSymptom)];
    // Score: same rank, then an application log of the node, then any line of the node; nearest in time.
    int best = -1;
    std::tuple<int, TimeNs> bestScore{4, 0};
    for (std::size_t i = 0; i < r.observations.size(); ++i) {
        const Observation& o = r.observations[i];
        if (o.node != root.node || root.node.empty())
            continue;
        const int tier = s.rank >= 0 && o.rank == s.rank ? 0 : o.kind == SourceKind::App ? 1 : 2;
        const TimeNs distance =
            o.time == NoTime || root.time == NoTime ? std::numeric_limits<TimeNs>::max() : std::abs(o.time - root.time);
        if (std::tuple{tier, distance} < bestScore) {
            bestScore = {tier, distance};
            best = static_cast<int>(i);
        }
    }
    if (best < 0)
        return false;
    m_selection->selectObservation(best);
    return true;
}

}  // namespace attrib::views
