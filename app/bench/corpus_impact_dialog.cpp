// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/bench/corpus_impact_dialog.h"

#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"
#include "views/catalog/corpus_impact_model.h"
#include "views/presentation.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace attrib::bench {

namespace {

/// Forwards engine progress to the dialog's bar through the event loop (the work runs on a pool thread).
class BarProgress final : public engine::ProgressSink {
public:
    explicit BarProgress(QProgressBar* bar)
        : m_bar(bar)
    {
    }
    void progress(engine::ProgressStage, std::uint64_t done, std::uint64_t total) override
    {
        // Queued to the application object, which outlives the dialog; the bar may be gone by then.
        QPointer<QProgressBar> bar = m_bar;
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [bar, done, total] {
                if (bar) {
                    bar->setMaximum(static_cast<int>(total));
                    bar->setValue(static_cast<int>(done));
                }
            },
            Qt::QueuedConnection);
    }

private:
    QPointer<QProgressBar> m_bar;
};

}  // namespace

QString CorpusImpactDialog::defaultCorpus()
{
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/attribution-workbench/samples"));
    if (QDir(installed).exists())
        return QDir::cleanPath(installed);
    return QDir::cleanPath(
        QDir(QString::fromStdString(rules::sourceRulesDir())).filePath(QStringLiteral("../samples")));
}

CorpusImpactDialog::CorpusImpactDialog(RuleBenchController* controller, QWidget* parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_model(new views::CorpusImpactModel(this))
    , m_corpus(new QLineEdit(defaultCorpus(), this))
    , m_baseline(new QLineEdit(this))
    , m_run(new QPushButton(tr("Run"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
    , m_jobs(this)
{
    setWindowTitle(tr("Corpus impact of the active catalog"));
    resize(1100, 520);
    m_baseline->setPlaceholderText(tr("empty: the catalog this session started with"));
    auto* form = new QFormLayout;
    form->addRow(tr("Corpus folder:"), m_corpus);
    form->addRow(tr("Baseline rules folder:"), m_baseline);
    m_summary->setTextFormat(Qt::PlainText);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(true);
    auto* copy = new QPushButton(tr("Copy as text"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(copy);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, [this] { run(m_corpus->text(), m_baseline->text()); });
    connect(m_cancel, &QPushButton::clicked, this, &CorpusImpactDialog::cancel);
    connect(copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(views::qs(engine::corpusImpactText(m_model->impact(), true)));
    });
}

void CorpusImpactDialog::run(const QString& corpus, const QString& baselineDir)
{
    const auto candidate = m_controller->catalog();
    if (m_running || !candidate)
        return;
    m_running = true;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_summary->setText(tr("Running both catalogs over %1\u2026").arg(corpus));
    views::JobHandlers<engine::CorpusImpact> on;
    on.result = [this](const engine::CorpusImpact& impact) { onFinished(impact); };
    on.finished = [this](bool cancelled) { onEnded(cancelled); };
    auto progress = std::make_shared<BarProgress>(m_progress);
    m_jobs.start(
        [corpus = corpus.toStdString(), baselineDir = baselineDir.toStdString(),
         session = m_controller->baselineCatalog(), candidate,
         progress](QPromise<engine::CorpusImpact>& promise, engine::CancelFlag& cancel) {
            const auto baseline = baselineDir.empty() ? session : rules::loadCatalog(baselineDir);
            const engine::BundleAnalyzer analyze = [&cancel](const std::string& bundle,
                                                             const engine::CatalogPtr& catalog,
                                                             std::string& error) -> engine::AnalysisSnapshot {
                importers::AnalyzeOptions options;
                options.cancel = &cancel;
                auto outcome = importers::analyzeBundle(bundle, catalog, options);
                error = outcome.error;
                return outcome.result;
            };
            auto impact = engine::runCorpusImpact(engine::listBundles(corpus), baseline ? baseline : candidate,
                                                  candidate, analyze, progress.get(), &cancel);
            if (!cancel.load())
                promise.addResult(std::move(impact));
        },
        std::move(on));
}

void CorpusImpactDialog::cancel()
{
    if (m_running)
        m_jobs.cancel();
}

void CorpusImpactDialog::onEnded(bool cancelled)
{
    if (!m_running)
        return;  // onFinished had the result
    m_running = false;
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_summary->setText(cancelled ? tr("Cancelled; the table shows the previous run")
                                 : tr("The run ended without a result"));
    Q_EMIT finished();
}

void CorpusImpactDialog::onFinished(engine::CorpusImpact impact)
{
    m_running = false;
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_summary->setText(tr("%1 of %2 verdict(s) changed; baseline %3, new %4")
                           .arg(impact.changedCount())
                           .arg(impact.bundles.size())
                           .arg(views::qs(impact.baselineHash), views::qs(impact.candidateHash)));
    m_model->setImpact(std::move(impact));
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    Q_EMIT finished();
}

QString CorpusImpactDialog::summary() const
{
    return m_summary->text();
}

}  // namespace attrib::bench
