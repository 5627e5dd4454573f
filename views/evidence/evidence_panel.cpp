// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/evidence/evidence_panel.h"

#include "views/describe.h"
#include "views/evidence/find_bar.h"
#include "views/models/bundle_file_model.h"
#include "views/presentation.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace attrib::views {

using namespace attrib::engine;

namespace {

QLabel* plainLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

EvidencePanel::EvidencePanel(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_fileModel(new BundleFileModel(this))
    , m_fileCombo(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_goto(new QLineEdit(this))
    , m_openInFile(new QToolButton(this))
    , m_chip(plainLabel(this))
    , m_title(plainLabel(this))
    , m_detail(plainLabel(this))
    , m_status(plainLabel(this))
    , m_view(new EvidenceTextView(this))
    , m_find(new FindBar(this))
    , m_bookmarksButton(new QToolButton(this))
    , m_mergedButton(new QToolButton(this))
    , m_culpritButton(new QToolButton(this))
    , m_bookmarkMenu(new QMenu(this))
    , m_mergedMenu(new QMenu(this))
{
    m_fileCombo->setModel(m_fileModel);
    m_fileCombo->setMinimumContentsLength(28);
    m_fileCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_fileCombo->setToolTip(QStringLiteral("Show a whole file of the bundle"));
    m_filter->setPlaceholderText(QStringLiteral("Filter lines\u2026"));
    m_filter->setClearButtonEnabled(true);
    m_goto->setPlaceholderText(QStringLiteral("Line or time"));
    m_goto->setToolTip(QStringLiteral("Go to a line number, or to a time such as 21:34:20 or 2026-04-22 21:34:20.5 "
                                      "(UTC, times as the analysis corrected them; uses the evidence lines' times)"));
    m_goto->setMaximumWidth(130);
    m_openInFile->setText(QStringLiteral("Open in file"));
    m_openInFile->setToolTip(QStringLiteral("Show the current evidence line in its whole file"));
    m_openInFile->setEnabled(false);
    m_chip->setMargin(3);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_detail->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: #5f6368"));
    m_view->setPlaceholderText(m_placeholderText);
    m_filterDelay.setSingleShot(true);
    m_filterDelay.setInterval(250);

    m_bookmarksButton->setText(QStringLiteral("Bookmarks"));
    m_bookmarksButton->setMenu(m_bookmarkMenu);
    m_bookmarksButton->setPopupMode(QToolButton::InstantPopup);
    m_mergedButton->setText(QStringLiteral("Merged"));
    m_mergedButton->setToolTip(QStringLiteral("The evidence lines of all files of a node, or of the whole job, in "
                                              "time order"));
    m_mergedButton->setMenu(m_mergedMenu);
    m_mergedButton->setPopupMode(QToolButton::InstantPopup);
    m_culpritButton->setText(QStringLiteral("Culprit's log"));
    m_find->hide();
    connect(m_bookmarkMenu, &QMenu::aboutToShow, this, &EvidencePanel::rebuildBookmarkMenu);
    connect(m_mergedMenu, &QMenu::aboutToShow, this, &EvidencePanel::rebuildMergedMenu);
    connect(m_culpritButton, &QToolButton::clicked, this, &EvidencePanel::showCulpritLog);

    // A tool bar, not a row of widgets: in a narrow pane the last tools move into its overflow menu instead of
    // widening the window.
    auto* tools = new QToolBar(this);
    tools->setObjectName(QStringLiteral("evidenceTools"));
    m_fileCombo->setMinimumContentsLength(18);
    m_filter->setMinimumWidth(100);
    m_filter->setMaximumWidth(260);
    for (QWidget* w : std::initializer_list<QWidget*>{m_fileCombo, m_mergedButton, m_filter, m_goto, m_openInFile,
                                                      m_culpritButton, m_bookmarksButton, m_status})
        tools->addWidget(w);
    auto* header = new QHBoxLayout;
    header->addWidget(m_chip);
    header->addWidget(m_title, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_detail);
    layout->addWidget(tools);
    layout->addWidget(m_find);
    layout->addWidget(m_view, 1);
    layout->addWidget(buildLegend());

    connect(m_fileCombo, &QComboBox::activated, this, [this](int row) { showFile(row); });
    connect(m_filter, &QLineEdit::textChanged, &m_filterDelay, qOverload<>(&QTimer::start));
    connect(&m_filterDelay, &QTimer::timeout, this, [this] {
        LineQuery q = m_filterFlags;
        q.text = m_filter->text();
        if (q.text.isEmpty())
            m_filterFlags = {};
        m_view->setFilterQuery(q);
    });
    connect(m_goto, &QLineEdit::returnPressed, this, [this] {
        const QString text = m_goto->text().trimmed();
        bool number = false;
        const qint64 line = text.toLongLong(&number);
        const bool ok = number ? m_view->goToLine(line) : goToTime(text);
        m_goto->setStyleSheet(ok ? QString() : QStringLiteral("background: #fde7e9"));
        if (ok)
            m_view->setFocus(Qt::OtherFocusReason);
    });
    connect(m_openInFile, &QToolButton::clicked, this, [this] {
        if (m_view->currentRow() >= 0)
            showFile(m_view->rowFile(m_view->currentRow()), m_view->rowLine(m_view->currentRow()));
    });
    connect(m_view, &EvidenceTextView::openInFileRequested, this, &EvidencePanel::showFile);
    connect(m_view, &EvidenceTextView::observationActivated, this, &EvidencePanel::onObservationActivated);
    connect(m_view, &EvidenceTextView::rowsChanged, this, &EvidencePanel::updateStatus);
    connect(m_view, &EvidenceTextView::contextMenuRequested, this, &EvidencePanel::buildContextMenu);
    connect(m_find, &FindBar::queryChanged, this, [this](const LineQuery& q) {
        m_view->setFindQuery(q);
        updateFindStatus();
    });
    connect(m_find, &FindBar::findNext, this, [this] {
        m_view->findNext(false);
        updateFindStatus();
    });
    connect(m_find, &FindBar::findPrevious, this, [this] {
        m_view->findNext(true);
        updateFindStatus();
    });
    connect(m_find, &FindBar::filterRequested, this, [this](const LineQuery& q) {
        m_filterFlags = q;
        const QSignalBlocker block(m_filter);
        m_filter->setText(q.text);
        m_filter->setToolTip(q.invert ? QStringLiteral("Hiding the lines that match") : QString());
        m_view->setFilterQuery(q);
    });
    connect(m_find, &FindBar::closed, this, [this] { m_view->setFocus(Qt::OtherFocusReason); });
    buildActions();
    connect(m_selection, &SelectionModel::analysisChanged, this, &EvidencePanel::onAnalysisChanged);
    connect(m_selection, &SelectionModel::selectionChanged, this, &EvidencePanel::onSelectionChanged);
    onAnalysisChanged(m_selection->analysis());
}

QWidget* EvidencePanel::buildLegend()
{
    // One word-wrapped label: in a narrow pane the legend takes a second line instead of widening the window.
    // Non-breaking spaces keep each swatch with its name.
    QString html;
    const auto item = [&html](const QString& swatchCss, const QString& name) {
        html += QStringLiteral("<span style=\"%1\">&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(swatchCss, name.toHtmlEscaped());
    };
    for (EvidenceRole role : {EvidenceRole::RootCause, EvidenceRole::Active, EvidenceRole::Interesting,
                              EvidenceRole::Demoted, EvidenceRole::Context})
        item(QStringLiteral("background-color: %1").arg(roleColor(role).name()), roleName(role));
    html +=
        QStringLiteral("<span style=\"background-color: #fff0a8\">&nbsp;matched&nbsp;by&nbsp;a&nbsp;rule&nbsp;</span>"
                       "&nbsp;&nbsp; <span style=\"color: #e08a00\"><b>&#9472;&#9472;</b></span>"
                       "&nbsp;captured&nbsp;field");
    auto* legend = new QLabel(this);
    legend->setObjectName(QStringLiteral("evidenceLegend"));
    legend->setTextFormat(Qt::RichText);
    legend->setWordWrap(true);
    legend->setText(html);
    return legend;
}

void EvidencePanel::setSource(EvidenceSource* source)
{
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = source;
    m_view->setSource(source);
    if (m_source)
        connect(m_source, &EvidenceSource::lineCountChanged, this, [this](int file) {
            if (m_view->isFileMode() && m_view->file() == file)
                describeFile(file);
        });
    setHeader(QString(), QString(), -1);
}

void EvidencePanel::setBundleFiles(AnalysisPtr partial)
{
    m_files = std::move(partial);
    m_fileModel->setAnalysis(m_files);
    m_fileCombo->setCurrentIndex(-1);
    m_fileCombo->setPlaceholderText(QStringLiteral("%1 files").arg(m_fileModel->rowCount()));
}

void EvidencePanel::onAnalysisChanged(const AnalysisPtr& analysis)
{
    m_analysis = analysis;
    m_view->setAnalysis(analysis);
    if (analysis)
        setBundleFiles(analysis);
    m_filter->clear();
    m_view->clear();
    setHeader(QString(), QString(), -1);
}

QString EvidencePanel::titleText() const
{
    return m_title->text();
}

QString EvidencePanel::detailText() const
{
    return m_detail->text();
}

void EvidencePanel::setHeader(const QString& title, const QString& detail, int role)
{
    m_title->setText(title);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
    m_chip->setVisible(role >= 0);
    if (role >= 0) {
        const auto r = static_cast<EvidenceRole>(role);
        m_chip->setText(roleName(r).toUpper());
        m_chip->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 3px; font-weight: bold")
                                  .arg(roleColor(r).darker(r == EvidenceRole::Interesting ? 125 : 100).name()));
    }
    updateStatus();
}

void EvidencePanel::selectFileInCombo(int file)
{
    const QSignalBlocker block(m_fileCombo);
    m_fileCombo->setCurrentIndex(file);
}

void EvidencePanel::showFile(int file, qint64 line)
{
    if (!m_source || file < 0 || file >= m_source->fileCount())
        return;
    m_filter->blockSignals(true);
    m_filter->clear();
    m_filter->blockSignals(false);
    selectFileInCombo(file);
    m_openInFile->setEnabled(false);
    if (const QString why = skippedReason(file); !why.isEmpty()) {
        // Binary and skipped files are never painted as text.
        m_view->clear();
        m_view->setPlaceholderText(QStringLiteral("%1 was not read: %2").arg(m_source->filePath(file), why));
        setHeader(m_source->filePath(file), QStringLiteral("not read: ") + why, -1);
        return;
    }
    m_view->setPlaceholderText(m_placeholderText);
    if (!m_source->lineCount(file).available && m_analysis &&
        file < static_cast<int>(m_analysis->fileObservations.size())) {
        showKeptLines(file, line);
        return;
    }
    m_view->showFile(file, line);
    describeFile(file);
}

void EvidencePanel::showKeptLines(int file, qint64 line)
{
    // The file cannot be re-read: show the evidence lines the analysis kept in memory instead.
    QVector<EvidenceTextView::ListRow> rows;
    int current = 0;
    for (std::uint32_t o : m_analysis->fileObservations[file]) {
        const auto& src = m_analysis->r().observations[o].source;
        if (static_cast<qint64>(src.line) - 1 == line)
            current = static_cast<int>(rows.size());
        rows.append({file, static_cast<qint64>(src.line) - 1, static_cast<int>(o)});
    }
    m_view->showRows(rows, current);
    setHeader(m_source->filePath(file),
              QStringLiteral("This file cannot be re-read (%1); showing the %2 evidence line(s) the analysis kept.")
                  .arg(m_source->lineCount(file).problem)
                  .arg(rows.size()),
              -1);
}

void EvidencePanel::describeFile(int file)
{
    const LineCount count = m_source ? m_source->lineCount(file) : LineCount{};
    QString detail = count.available ? QStringLiteral("%1 lines%2")
                                           .arg(count.lines)
                                           .arg(count.complete ? QString() : QStringLiteral(" so far (indexing\u2026)"))
                                     : QStringLiteral("cannot be re-read: ") + count.problem;
    const auto& fileObs = m_analysis && file < static_cast<int>(m_analysis->fileObservations.size())
        ? m_analysis->fileObservations[file]
        : std::vector<std::uint32_t>{};
    if (!fileObs.empty()) {
        int interesting = 0;
        for (std::uint32_t o : fileObs)
            interesting += m_analysis->observationRole[o] == EvidenceRole::Interesting;
        detail += QStringLiteral(" \u00b7 %1 evidence line(s), %2 of them interesting (demoted)")
                      .arg(fileObs.size())
                      .arg(interesting);
    }
    const Selection& sel = m_selection->current();
    if (sel.focus == Selection::Focus::Event || sel.focus == Selection::Focus::Observation)
        return describeSelection(sel);
    setHeader(m_source ? m_source->filePath(file) : QString(), detail, -1);
}

void EvidencePanel::describeSelection(const Selection& sel)
{
    if (!m_analysis)
        return;
    const QString where = observationLocation(*m_analysis, sel.observation);
    QString detail;
    int role = -1;
    if (sel.event >= 0)
        detail = describeEvent(*m_analysis, sel.event).section(QLatin1Char('\n'), 0, 2);
    if (sel.symptom >= 0)
        role = static_cast<int>(m_analysis->symptomRole[sel.symptom]);
    else if (sel.event >= 0)
        role = static_cast<int>(EvidenceRole::Context);
    setHeader(where, detail, role);
}

void EvidencePanel::showSymptom(int symptom, int observation)
{
    if (!m_analysis || symptom < 0 || symptom >= static_cast<int>(m_analysis->r().symptoms.size()))
        return;
    const Symptom& s = m_analysis->r().symptoms[symptom];
    QVector<EvidenceTextView::ListRow> rows;
    int current = 0;
    for (std::uint64_t id : s.evidence) {
        const int o = m_analysis->observationIndex(id);
        if (o < 0)
            continue;
        const auto& src = m_analysis->r().observations[o].source;
        if (o == observation)
            current = static_cast<int>(rows.size());
        rows.append({static_cast<int>(src.file), static_cast<qint64>(src.line) - 1, o});
    }
    m_filter->blockSignals(true);
    m_filter->clear();
    m_filter->blockSignals(false);
    m_view->showRows(rows, current);
    selectFileInCombo(-1);
    m_openInFile->setEnabled(!rows.isEmpty());
    const QString title = qs(s.id) + QStringLiteral(" \u2014 %1 evidence line(s)").arg(rows.size());
    setHeader(title, statusLine(s), static_cast<int>(m_analysis->symptomRole[symptom]));
}

void EvidencePanel::onSelectionChanged(const Selection& selection)
{
    if (m_internal || !m_analysis)
        return;
    switch (selection.focus) {
    case Selection::Focus::Symptom: showSymptom(selection.symptom, selection.observation); break;
    case Selection::Focus::Event:
    case Selection::Focus::Observation:
        if (selection.observation >= 0) {
            const auto& src = m_analysis->r().observations[selection.observation].source;
            showFile(static_cast<int>(src.file), static_cast<qint64>(src.line) - 1);  // the line that says it
        } else {
            describeSelection(selection);
        }
        break;
    case Selection::Focus::None: break;
    }
}

void EvidencePanel::onObservationActivated(int observation)
{
    m_internal = true;
    m_selection->selectObservation(observation);
    m_internal = false;
    if (m_view->isFileMode())
        describeSelection(m_selection->current());
}

void EvidencePanel::updateStatus()
{
    QString text = QStringLiteral("%1 row(s)").arg(m_view->rowCount());
    if (m_view->filterRunning())
        text = QStringLiteral("filtering\u2026 %1 match(es)").arg(m_view->rowCount());
    else if (!m_view->filterText().isEmpty())
        text = QStringLiteral("%1 match(es)").arg(m_view->rowCount());
    m_status->setText(m_view->file() >= 0 || !m_view->isFileMode() ? text : QString());
}

}  // namespace attrib::views
