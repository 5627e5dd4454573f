// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/learn/learn_panel.h"

#include "engine/expectation.h"
#include "views/presentation.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attrib::views {

namespace {

constexpr int PathRole = Qt::UserRole + 1;

QString canonical(const QString& path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? QFileInfo(path).absoluteFilePath() : c;
}

QString text(const nlohmann::ordered_json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

/// "symptom on node GPU n" of a verdict's or expectation's root cause; "(none)" when it names nothing.
QString rootText(const QString& symptom, const QString& node, int gpu)
{
    QStringList parts;
    if (!symptom.isEmpty())
        parts << symptom;
    if (!node.isEmpty())
        parts << QStringLiteral("on ") + node;
    if (gpu >= 0)
        parts << QStringLiteral("GPU %1").arg(gpu);
    return parts.isEmpty() ? QStringLiteral("(none)") : parts.join(QLatin1Char(' '));
}

QString actualRoot(const nlohmann::ordered_json& verdict)
{
    const auto rc = verdict.find("root_cause");
    if (rc == verdict.end() || !rc->is_object())
        return rootText({}, {}, -1);
    const auto gpu = rc->find("gpu");
    return rootText(text(*rc, "symptom"), text(*rc, "node"),
                    gpu != rc->end() && gpu->is_number_integer() ? gpu->get<int>() : -1);
}

}  // namespace

LearnPanel::LearnPanel(QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_title(new QLabel(this))
    , m_expected(new QLabel(this))
    , m_open(new QPushButton(QStringLiteral("&Open this sample"), this))
    , m_agreement(new QLabel(this))
    , m_compare(new QLabel(this))
    , m_lesson(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("LearnPanel"));
    m_tree->setObjectName(QStringLiteral("learnSamples"));
    m_tree->setColumnCount(1);
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setStyleSheet(QStringLiteral("font-weight: bold; font-size: 12pt"));
    m_expected->setWordWrap(true);
    m_expected->setTextFormat(Qt::PlainText);
    m_open->setObjectName(QStringLiteral("learnOpenSample"));
    m_open->setToolTip(QStringLiteral("Analyse this sample in the workbench, then compare with the lesson"));
    m_agreement->setWordWrap(true);
    m_agreement->setTextFormat(Qt::PlainText);
    m_compare->setObjectName(QStringLiteral("learnComparison"));
    m_compare->setTextFormat(Qt::RichText);  // every value is escaped: node names come from the evidence
    m_compare->setWordWrap(true);
    m_lesson->setObjectName(QStringLiteral("learnLesson"));
    m_lesson->setOpenLinks(false);  // lessons are read here; nothing in them navigates away
    auto* details = new QWidget(this);
    auto* box = new QVBoxLayout(details);
    box->setContentsMargins(0, 4, 0, 0);
    box->addWidget(m_title);
    box->addWidget(m_expected);
    box->addWidget(m_open, 0, Qt::AlignLeft);
    box->addWidget(m_agreement);
    box->addWidget(m_compare);
    box->addWidget(m_lesson, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        const QString path = item ? item->data(0, PathRole).toString() : QString();
        showSample(path.isEmpty() ? nullptr : sampleAt(path));
    });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (const QString path = item->data(0, PathRole).toString(); !path.isEmpty())
            Q_EMIT openSampleRequested(path);
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (const SampleInfo* s = currentSample())
            Q_EMIT openSampleRequested(s->path);
    });
    showSample(nullptr);
}

void LearnPanel::setLibrary(SampleLibrary library)
{
    m_library = std::move(library);
    buildTree();
    if (!m_library.samples.isEmpty())
        selectSample(m_library.samples.front().name);
}

void LearnPanel::buildTree()
{
    m_tree->clear();
    QTreeWidgetItem* group = nullptr;
    for (const SampleInfo& s : m_library.samples) {
        if (!group || group->text(0) != s.group) {
            group = new QTreeWidgetItem(m_tree, {s.group});
            group->setFlags(Qt::ItemIsEnabled);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
            group->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(group, {s.title});
        item->setData(0, PathRole, s.path);
        item->setToolTip(0,
                         plainToolTip(verdictSummary(s.terminalState, s.subDomain) + QStringLiteral("\n") +
                                      (s.description.isEmpty() ? s.name : s.description)));
    }
    for (const QString& problem : m_library.problems) {
        auto* item = new QTreeWidgetItem(m_tree, {QStringLiteral("Unreadable sample: ") + problem});
        item->setToolTip(0, plainToolTip(problem));
    }
    m_tree->resizeColumnToContents(0);
}

bool LearnPanel::selectSample(const QString& name)
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        const QString path = (*it)->data(0, PathRole).toString();
        if (!path.isEmpty() && QFileInfo(path).fileName() == name) {
            m_tree->setCurrentItem(*it);
            m_tree->scrollToItem(*it);
            return true;
        }
    }
    return false;
}

const SampleInfo* LearnPanel::currentSample() const
{
    for (const SampleInfo& s : m_library.samples) {
        if (s.name == m_current)
            return &s;
    }
    return nullptr;
}

const SampleInfo* LearnPanel::sampleAt(const QString& path) const
{
    const QString wanted = canonical(path);
    for (const SampleInfo& s : m_library.samples) {
        if (canonical(s.path) == wanted)
            return &s;
    }
    return nullptr;
}

void LearnPanel::showSample(const SampleInfo* sample)
{
    m_current = sample ? sample->name : QString();
    m_open->setEnabled(sample != nullptr);
    m_agreement->hide();
    m_compare->hide();
    m_agrees = false;
    if (!sample) {
        m_title->setText(m_library.samples.isEmpty() ? QStringLiteral("No samples found")
                                                     : QStringLiteral("Pick a sample"));
        m_expected->clear();
        m_lesson->clear();
        return;
    }
    m_title->setText(sample->title);
    m_expected->setText(QStringLiteral("Expected: ") +
                        verdictSummary(sample->terminalState, sample->subDomain, sample->rootNode, sample->rootGpu));
    // Markdown without raw HTML: a log line quoted in a lesson (`<b>`, `<script>`) shows as the text it is.
    m_lesson->document()->setMarkdown(
        sample->lesson.isEmpty() ? QStringLiteral("*This sample has no LESSON.md.*") : sample->lesson,
        QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML));
}

QStringList LearnPanel::showActual(const QString& bundlePath, const nlohmann::ordered_json& verdict)
{
    const SampleInfo* sample = sampleAt(bundlePath);
    if (!sample)
        return {};
    selectSample(sample->name);
    QStringList diffs;
    for (const std::string& d : engine::compareWithExpected(verdict, sample->expected))
        diffs << QString::fromStdString(d);
    fillComparison(*sample, verdict, diffs);
    return diffs;
}

void LearnPanel::fillComparison(const SampleInfo& sample, const nlohmann::ordered_json& verdict,
                                const QStringList& diffs)
{
    const QString rows[3][3] = {
        {QStringLiteral("Terminal state"), sample.terminalState, text(verdict, "terminal_state")},
        {QStringLiteral("Sub-domain"), sample.subDomain, text(verdict, "sub_domain")},
        {QStringLiteral("Root cause"), rootText(sample.rootSymptom, sample.rootNode, sample.rootGpu),
         actualRoot(verdict)}};
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\"><tr><th></th><th align=\"left\">Lesson "
                                  "expects</th><th align=\"left\">Engine says</th></tr>");
    for (const auto& row : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                    .arg(row[0].toHtmlEscaped(), row[1].toHtmlEscaped(), row[2].toHtmlEscaped());
    m_compare->setText(html + QStringLiteral("</table>"));
    m_agrees = diffs.isEmpty();
    m_agreement->setText(m_agrees ? QStringLiteral("\u2714 The engine agrees with the lesson.")
                                  : QStringLiteral("\u2716 The engine disagrees with the lesson:\n") +
                                 diffs.join(QLatin1Char('\n')));
    m_agreement->setStyleSheet(m_agrees ? QStringLiteral("color: #1b7f3b; font-weight: bold")
                                        : QStringLiteral("color: #b3261e; font-weight: bold"));
    m_agreement->show();
    m_compare->show();
}

}  // namespace attrib::views
