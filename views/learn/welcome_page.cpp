// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/learn/welcome_page.h"

#include "views/presentation.h"

#include <QBoxLayout>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attrib::views {

namespace {

constexpr int PathRole = Qt::UserRole + 1;

QLabel* label(const QString& text, QWidget* parent, const QString& style = {})
{
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    if (!style.isEmpty())
        l->setStyleSheet(style);
    return l;
}

QPushButton* bigButton(const QString& text, const QString& hint, const QString& name, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setToolTip(hint);
    b->setMinimumHeight(44);
    b->setStyleSheet(QStringLiteral("QPushButton { font-size: 12pt; padding: 6px 18px; }"));
    return b;
}

}  // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
    , m_openBundle(bigButton(QStringLiteral("Open a &bundle\u2026"),
                             QStringLiteral("A folder or a .tar, .tar.gz, .tgz or .zip of one (Ctrl+O)"),
                             QStringLiteral("welcomeOpenBundle"), this))
    , m_openSample(bigButton(QStringLiteral("Open a &sample"),
                             QStringLiteral("Annotated failures with their lessons, in the Learn panel"),
                             QStringLiteral("welcomeOpenSample"), this))
    , m_tour(bigButton(QStringLiteral("Take the &tour"), QStringLiteral("Walk through an NVLink failure step by step"),
                       QStringLiteral("welcomeTour"), this))
    , m_recent(new QTreeWidget(this))
    , m_noRecent(label(QStringLiteral("Bundles you open appear here, with the verdict they got."), this,
                       QStringLiteral("color: palette(mid)")))
{
    setObjectName(QStringLiteral("WelcomePage"));
    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setHeaderLabels({QStringLiteral("Last verdict"), QStringLiteral("Bundle"), QStringLiteral("Folder")});
    m_recent->setRootIsDecorated(false);
    m_recent->setUniformRowHeights(true);
    m_recent->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_recent->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_recent->setMinimumHeight(120);
    auto* column = new QWidget(this);
    column->setMaximumWidth(820);
    auto* box = new QVBoxLayout(column);
    box->setSpacing(10);
    box->addWidget(
        label(QStringLiteral("Attribution Workbench"), column, QStringLiteral("font-size: 20pt; font-weight: bold")));
    box->addWidget(label(QStringLiteral("Find why a distributed training job failed: which node, which part of the "
                                        "system, which lines prove it, and what to do next."),
                         column, QStringLiteral("font-size: 11pt")));
    box->addWidget(buildActions());
    box->addWidget(buildBundleNote());
    box->addWidget(label(QStringLiteral("Recent bundles"), column, QStringLiteral("font-weight: bold")));
    box->addWidget(m_noRecent);
    box->addWidget(m_recent, 4);
    box->addStretch(1);  // without recent bundles everything stays at the top
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // text wraps and the buttons stack instead
    scroll->setFrameShape(QFrame::NoFrame);
    auto* canvas = new QWidget(scroll);
    auto* centre = new QHBoxLayout(canvas);
    centre->setContentsMargins(24, 24, 24, 24);
    // Centred by stretches, not by alignment: an aligned item is laid out at one width and measured for its height
    // at another, so wrapped text got fewer lines of room than it needs and the next heading covered its last line.
    centre->addStretch(1);
    centre->addWidget(column, 100);
    centre->addStretch(1);
    scroll->setWidget(canvas);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    connect(m_openBundle, &QPushButton::clicked, this, &WelcomePage::openBundleRequested);
    connect(m_openSample, &QPushButton::clicked, this, &WelcomePage::openSampleRequested);
    connect(m_tour, &QPushButton::clicked, this, &WelcomePage::tourRequested);
    connect(m_recent, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (!item->isDisabled())
            Q_EMIT recentActivated(item->data(0, PathRole).toString());
    });
    setRecent({});
}

QWidget* WelcomePage::buildActions()
{
    auto* row = new QWidget(this);
    m_buttons = new QBoxLayout(QBoxLayout::LeftToRight, row);
    m_buttons->setContentsMargins(0, 8, 0, 8);
    for (QPushButton* b : {m_openBundle, m_openSample, m_tour})
        m_buttons->addWidget(b, 0, Qt::AlignLeft);
    m_buttons->addStretch(1);
    return row;
}

QWidget* WelcomePage::buildBundleNote()
{
    auto* note = new QLabel(this);
    note->setObjectName(QStringLiteral("welcomeBundleNote"));
    note->setWordWrap(true);
    note->setTextFormat(Qt::RichText);
    note->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    note->setText(QStringLiteral(
        "<b>What is a bundle?</b> The logs collected for one failed job, in one folder (or a .tar, .tar.gz, .tgz "
        "or .zip of it): kernel logs (<tt>dmesg</tt>, journal), each rank's log (NCCL, PyTorch), the Slurm or "
        "Kubernetes records, and optionally <tt>workload.json</tt>. File names do not matter; the workbench "
        "recognises each file by its content. <a href=\"guide:collect\">How to collect a bundle on Slurm and "
        "Kubernetes</a>"));
    connect(note, &QLabel::linkActivated, this, [this] { Q_EMIT collectionGuideRequested(); });
    return note;
}

void WelcomePage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_buttons->setDirection(width() < 640 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

void WelcomePage::setRecent(const QList<RecentEntry>& entries)
{
    m_recent->clear();
    for (const RecentEntry& e : entries) {
        const QFileInfo info(e.path);
        const QString verdict = e.terminalState.isEmpty()
            ? QStringLiteral("not analysed")
            : QString(e.terminalState).replace(QLatin1Char('_'), QLatin1Char(' ')).toUpper() + QStringLiteral(" / ") +
                e.subDomain;
        auto* item = new QTreeWidgetItem(m_recent, {verdict, info.fileName(), info.absolutePath()});
        item->setData(0, PathRole, e.path);
        item->setToolTip(2, plainToolTip(e.path));
        if (!e.terminalState.isEmpty()) {
            item->setBackground(0, terminalStateColor(e.terminalState.toStdString()));
            item->setForeground(0, Qt::white);
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
        }
        if (!e.exists) {
            item->setDisabled(true);
            item->setText(1, info.fileName() + QStringLiteral(" (missing)"));
        }
    }
    m_recent->setVisible(!entries.isEmpty());
    m_noRecent->setVisible(entries.isEmpty());
    if (!entries.isEmpty())
        m_recent->setCurrentItem(m_recent->topLevelItem(0));
}

}  // namespace attrib::views
