// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/search_panel.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
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

/// Forwards index progress to the panel's progress bar on the GUI thread.
class PanelProgress : public engine::ProgressSink {
public:
    explicit PanelProgress(QProgressBar* bar)
        : m_bar(bar)
    {
    }
    void progress(const std::string&, std::uint64_t done, std::uint64_t) override
    {
        QMetaObject::invokeMethod(
            m_bar,
            [bar = m_bar, done] {
                if (bar)
                    bar->setFormat(QStringLiteral("indexing: %1 lines").arg(done));
            },
            Qt::QueuedConnection);
    }

private:
    QPointer<QProgressBar> m_bar;
};

}  // namespace

SearchPanel::SearchPanel(QWidget* parent)
    : QWidget(parent)
    , m_box(new QLineEdit(this))
    , m_results(new QTreeWidget(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
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
    connect(m_cancel, &QPushButton::clicked, this, &SearchPanel::cancelIndex);
    connect(m_results, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, LineRole).isValid())
            Q_EMIT hitActivated(item->data(0, FileRole).toInt(), item->data(0, LineRole).toULongLong());
    });
}

SearchPanel::~SearchPanel()
{
    m_cancelFlag = true;
    joinBuilder();
}

void SearchPanel::joinBuilder()
{
    if (m_builder.joinable())
        m_builder.join();
}

void SearchPanel::startIndex(const std::string& indexPath, const std::string& bundleHash, store::LineSource source)
{
    m_cancelFlag = true;
    joinBuilder();
    m_cancelFlag = false;
    m_index.reset();
    m_box->setEnabled(false);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Indexing every line of the bundle…"));
    QPointer<SearchPanel> self(this);
    m_builder = std::thread([self, indexPath, bundleHash, source = std::move(source), this] {
        PanelProgress progress(m_progress);
        std::shared_ptr<store::SearchIndex> index;
        QString error;
        try {
            index = store::SearchIndex::openOrBuild(indexPath, bundleHash, source, store::Tokenizer::Trigram, &progress,
                                                    &m_cancelFlag);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        const bool cancelled = !index && error.isEmpty();
        QMetaObject::invokeMethod(
            self,
            [self, index, error, cancelled] {
                if (self)
                    self->finishBuild(index, error, cancelled);
            },
            Qt::QueuedConnection);
    });
}

void SearchPanel::cancelIndex()
{
    m_cancelFlag = true;
}

void SearchPanel::finishBuild(std::shared_ptr<store::SearchIndex> index, const QString& error, bool cancelled)
{
    joinBuilder();
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
    QElapsedTimer timer;
    timer.start();
    std::vector<store::SearchHit> hits;
    try {
        hits = m_index->search(text.toStdString(), MaxHits);
    } catch (const store::StoreError& e) {
        m_status->setText(QString::fromStdString(e.what()));
        return 0;
    }
    std::map<QString, QTreeWidgetItem*> nodes;
    for (const auto& hit : hits) {
        const QString node = hit.node.empty() ? tr("(no node)") : QString::fromStdString(hit.node);
        auto*& nodeItem = nodes[node];
        if (!nodeItem) {
            nodeItem = new QTreeWidgetItem(m_results, {node});
            nodeItem->setExpanded(true);
        }
        auto* fileItem = groupItem(nodeItem, QString::fromStdString(hit.path));
        auto* item = new QTreeWidgetItem(fileItem, {QString::number(hit.line), QString::fromStdString(hit.text)});
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
    m_status->setText(tr("%1%2 hits for \"%3\" in %4 ms")
                          .arg(hits.size() >= MaxHits ? tr("first ") : QString())
                          .arg(hits.size())
                          .arg(text)
                          .arg(timer.elapsed()));
    return static_cast<int>(hits.size());
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
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attrib::views
