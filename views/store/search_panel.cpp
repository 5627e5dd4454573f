// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/search_panel.h"

#include "engine/store/regex_search.h"
#include "views/presentation.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace attrib::views {

namespace {

constexpr int FileRole = Qt::UserRole;
constexpr int LineRole = Qt::UserRole + 1;
constexpr std::size_t MaxHits = 2000;

}  // namespace

SearchPanel::SearchPanel(QWidget* parent)
    : QWidget(parent)
    , m_box(new QLineEdit(this))
    , m_results(new QTreeWidget(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_regex(new QCheckBox(tr("Rege&x"), this))
    , m_case(new QCheckBox(tr("Match c&ase"), this))
{
    m_regex->setToolTip(tr("Search with an RE2 regular expression, streamed over every file (no index: slower, "
                           "cancellable with Esc or Cancel)"));
    m_case->setToolTip(tr("Regex mode: match upper and lower case exactly (substring search ignores case)"));
    m_case->setEnabled(false);
    connect(m_regex, &QCheckBox::toggled, this, &SearchPanel::setRegexMode);
    setObjectName(QStringLiteral("SearchPanel"));
    m_box->setPlaceholderText(tr("Search every line of the bundle (3+ characters; Enter, F3, Shift+F3)"));
    m_box->setClearButtonEnabled(true);
    m_box->setEnabled(false);
    m_box->installEventFilter(this);
    m_results->setColumnCount(2);
    m_results->setHeaderLabels({tr("Node / file / line"), tr("Text")});
    m_results->header()->setStretchLastSection(true);
    m_results->setUniformRowHeights(true);
    m_results->installEventFilter(this);
    m_progress->setRange(0, 0);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_cancel->hide();
    auto* row = new QHBoxLayout;
    row->addWidget(m_box, 1);
    row->addWidget(m_regex);
    row->addWidget(m_case);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_status);
    connect(m_box, &QLineEdit::returnPressed, this, [this] {
        if (m_hitItems.empty() || m_box->isModified())
            search(m_box->text());
        else
            nextHit();
        m_box->setModified(false);
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        cancelIndex();
        cancelSearch();
    });
    connect(m_results, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, LineRole).isValid())
            Q_EMIT hitActivated(item->data(0, FileRole).toInt(), item->data(0, LineRole).toULongLong());
    });
}

SearchPanel::~SearchPanel() = default;  // the job runners cancel and wait for their jobs

void SearchPanel::showWorking(const QString& format, const QString& status)
{
    m_progress->setFormat(format);
    m_progress->show();
    m_cancel->show();
    m_status->setText(status);
}

void SearchPanel::startIndex(const std::string& indexPath, const std::string& bundleHash, store::LineSource source)
{
    m_index.reset();
    m_box->setEnabled(false);
    showWorking(tr("indexing…"), tr("Indexing every line of the bundle…"));
    JobHandlers<Built> on;
    on.progress = [this](const QString& text, int) { m_progress->setFormat(text); };
    on.result = [this](const Built& built) { finishBuild(built.index, built.error, false); };
    on.finished = [this](bool cancelled) {
        if (cancelled)
            finishBuild(nullptr, {}, true);
    };
    const QString format = tr("indexing: %1 lines");
    m_indexJob.start<Built>(
        [indexPath, bundleHash, source = std::move(source), format](QPromise<Built>& promise,
                                                                    engine::CancelFlag& cancel) {
            PromiseProgress<Built> progress(promise, format);
            Built built;
            try {
                built.index = store::SearchIndex::openOrBuild(indexPath, bundleHash, source, store::Tokenizer::Trigram,
                                                              &progress, &cancel);
            } catch (const std::exception& e) {
                built.error = QString::fromStdString(e.what());
            }
            if (built.index || !built.error.isEmpty())  // neither: the build was cancelled
                promise.addResult(std::move(built));
        },
        std::move(on));
}

void SearchPanel::cancelIndex()
{
    m_indexJob.cancel();
}

void SearchPanel::finishBuild(std::shared_ptr<store::SearchIndex> index, const QString& error, bool cancelled)
{
    m_progress->hide();
    m_cancel->hide();
    if (!index) {
        m_status->setText(cancelled ? tr("Indexing cancelled.") : tr("Search is unavailable: %1").arg(error));
        return;
    }
    setIndex(std::move(index));
}

void SearchPanel::setIndex(std::shared_ptr<store::SearchIndex> index)
{
    m_index = std::move(index);
    const auto& s = m_index->stats();
    m_box->setEnabled(true);
    m_status->setText(tr("%1 lines in %2 files indexed%3.")
                          .arg(s.lines)
                          .arg(s.files)
                          .arg(s.reused ? tr(" (index reused)") : tr(" in %1 s").arg(s.buildSeconds, 0, 'f', 1)));
    Q_EMIT indexReady();
}

QTreeWidgetItem* SearchPanel::groupItem(QTreeWidgetItem* parent, const QString& text)
{
    for (int i = 0; i < parent->childCount(); ++i)
        if (parent->child(i)->text(0) == text)
            return parent->child(i);
    auto* item = new QTreeWidgetItem(parent, {text});
    item->setExpanded(true);
    return item;
}

int SearchPanel::search(const QString& text)
{
    m_results->clear();
    m_hitItems.clear();
    m_current = -1;
    if (!m_index)
        return 0;
    if (regexMode()) {
        startRegexScan(text);
        return -1;
    }
    QElapsedTimer timer;
    timer.start();
    std::vector<store::SearchHit> hits;
    try {
        hits = m_index->search(text.toStdString(), MaxHits);
    } catch (const store::StoreError& e) {
        m_status->setText(QString::fromStdString(e.what()));
        Q_EMIT searchFinished(0);
        return 0;
    }
    showHits(hits);
    m_status->setText(tr("%1%2 hits for \"%3\" in %4 ms")
                          .arg(hits.size() >= MaxHits ? tr("first ") : QString())
                          .arg(hits.size())
                          .arg(text)
                          .arg(timer.elapsed()));
    Q_EMIT searchFinished(static_cast<int>(hits.size()));
    return static_cast<int>(hits.size());
}

void SearchPanel::setRegexMode(bool regex)
{
    m_regex->setChecked(regex);
    m_case->setEnabled(regex);
    m_box->setPlaceholderText(regex ? tr("RE2 regular expression over every line (Enter, F3, Shift+F3)")
                                    : tr("Search every line of the bundle (3+ characters; Enter, F3, Shift+F3)"));
    m_box->setModified(true);  // the next Enter searches again in the new mode
}

bool SearchPanel::regexMode() const
{
    return m_regex->isChecked();
}

void SearchPanel::cancelSearch()
{
    m_scanJob.stop();
}

void SearchPanel::startRegexScan(const QString& pattern)
{
    showWorking(tr("searching…"), tr("Searching every line for /%1/…").arg(pattern));
    m_scanning = true;
    JobHandlers<Scanned> on;
    on.progress = [this](const QString& text, int) { m_progress->setFormat(text); };
    on.result = [this, pattern](const Scanned& s) { finishRegexScan(pattern, s.hits, scanNote(s), s.ms); };
    // Esc/Cancel only raises the scan's cancel flag (cancelSearch), so a stopped scan still delivers the hits it
    // found; a newer query supersedes the scan and its result is dropped.
    m_scanJob.start<Scanned>(
        [pattern, source = m_index->source(), caseSensitive = m_case->isChecked(),
         format = tr("searching: file %1 of %2")](QPromise<Scanned>& promise, engine::CancelFlag& cancel) {
            PromiseProgress<Scanned> progress(promise, format);
            QElapsedTimer timer;
            timer.start();
            Scanned out;
            try {
                auto found =
                    store::regexSearch(source, pattern.toStdString(), caseSensitive, MaxHits, &progress, &cancel);
                out.hits = std::move(found.hits);
                out.cancelled = found.cancelled;
                out.linesScanned = found.linesScanned;
                out.truncated = found.truncated;
                out.unreadable = std::move(found.errors);
            } catch (const store::StoreError& e) {
                out.error = QString::fromStdString(e.what());
            }
            out.ms = timer.elapsed();
            promise.addResult(std::move(out));
        },
        std::move(on));
}

QString SearchPanel::scanNote(const Scanned& s) const
{
    if (!s.error.isEmpty())
        return s.error;
    QString note;
    if (s.cancelled)
        note = tr(" (cancelled after %1 lines)").arg(s.linesScanned);
    else if (s.truncated)
        note = tr(" (stopped at the first %1)").arg(MaxHits);
    if (!s.unreadable.empty())
        note += tr("; %n file(s) unreadable: %1", nullptr, static_cast<int>(s.unreadable.size()))
                    .arg(QString::fromStdString(s.unreadable.front()));
    return note;
}

void SearchPanel::finishRegexScan(const QString& pattern, const std::vector<store::SearchHit>& hits,
                                  const QString& note, qint64 ms)
{
    m_scanning = false;
    m_progress->hide();
    m_cancel->hide();
    showHits(hits);
    if (hits.empty() && note.startsWith(QStringLiteral("regular expression")))
        m_status->setText(note);  // the pattern did not compile: RE2's reason, nothing else
    else
        m_status->setText(tr("%1 hits for /%2/ in %3 ms%4").arg(hits.size()).arg(pattern).arg(ms).arg(note));
    Q_EMIT searchFinished(static_cast<int>(hits.size()));
}

void SearchPanel::showHits(const std::vector<store::SearchHit>& hits)
{
    m_results->clear();
    m_hitItems.clear();
    m_current = -1;
    std::map<QString, QTreeWidgetItem*> nodes;
    for (const auto& hit : hits) {
        const QString node = hit.node.empty() ? tr("(no node)") : QString::fromStdString(hit.node);
        auto*& nodeItem = nodes[node];
        if (!nodeItem) {
            nodeItem = new QTreeWidgetItem(m_results, {node});
            nodeItem->setExpanded(true);
        }
        auto* fileItem = groupItem(nodeItem, QString::fromStdString(hit.path));
        auto* item =
            new QTreeWidgetItem(fileItem, {QString::number(hit.line), sanitizeLine(QString::fromStdString(hit.text))});
        item->setData(0, FileRole, static_cast<int>(hit.file));
        item->setData(0, LineRole, QVariant::fromValue<qulonglong>(hit.line));
        m_hitItems.push_back(item);
    }
    for (int i = 0; i < m_results->topLevelItemCount(); ++i) {
        auto* n = m_results->topLevelItem(i);
        int count = 0;
        for (int f = 0; f < n->childCount(); ++f) {
            n->child(f)->setText(1, tr("%n hit(s)", nullptr, n->child(f)->childCount()));
            count += n->child(f)->childCount();
        }
        n->setText(1, tr("%n hit(s)", nullptr, count));
    }
    m_results->resizeColumnToContents(0);
}

void SearchPanel::nextHit(bool backwards)
{
    if (m_hitItems.empty())
        return;
    const int n = static_cast<int>(m_hitItems.size());
    m_current = m_current < 0 ? (backwards ? n - 1 : 0) : (m_current + (backwards ? n - 1 : 1)) % n;
    QTreeWidgetItem* item = m_hitItems[static_cast<std::size_t>(m_current)];
    m_results->setCurrentItem(item);
    m_results->scrollToItem(item);
    Q_EMIT hitActivated(item->data(0, FileRole).toInt(), item->data(0, LineRole).toULongLong());
}

bool SearchPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_F3) {
            nextHit(key->modifiers() & Qt::ShiftModifier);
            return true;
        }
        if (key->key() == Qt::Key_Escape && searching()) {
            cancelSearch();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attrib::views
