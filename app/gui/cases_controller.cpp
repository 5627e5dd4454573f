// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/cases_controller.h"

#include "app/gui/bundle_controller.h"
#include "engine/store/bundle_lines.h"
#include "engine/store/case_record.h"
#include "engine/store/case_result.h"
#include "engine/store/search_index.h"
#include "engine/store/sqlite_case_store.h"
#include "views/evidence/evidence_panel.h"
#include "views/store/case_report.h"
#include "views/store/fleet_view.h"
#include "views/store/label_panel.h"
#include "views/store/search_panel.h"

#include <QAction>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTime>
#include <QVBoxLayout>

namespace attrib::app {

namespace {

std::string userName()
{
    const QByteArray user = qgetenv("USER");
    return user.isEmpty() ? std::string("analyst") : user.toStdString();
}

}  // namespace

CasesController::CasesController(BundleController* bundles, views::EvidencePanel* evidence, QObject* parent)
    : QObject(parent)
    , m_bundles(bundles)
    , m_evidence(evidence)
    , m_labels(new views::LabelPanel)
    , m_search(new views::SearchPanel)
    , m_storePath(defaultStorePath())
{
    connect(m_bundles, &BundleController::verdictShown, this, &CasesController::onVerdictShown);
    connect(m_labels, &views::LabelPanel::labelEdited, this, &CasesController::saveLabel);
    connect(m_search, &views::SearchPanel::hitActivated, this,
            [this](int file, qulonglong line) { m_evidence->showFile(file, static_cast<qint64>(line) - 1); });
}

CasesController::~CasesController()
{
    m_labels->flush();
}

QString CasesController::defaultStorePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/cases.sqlite");
}

void CasesController::install(QMainWindow* window, QDockWidget* tabWith)
{
    auto dock = [window, tabWith](QWidget* w, const QString& title, const QString& name) {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(name);
        d->setWidget(w);
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (tabWith)
            window->tabifyDockWidget(tabWith, d);
        return d;
    };
    dock(m_search, tr("Search"), QStringLiteral("searchDock"));
    dock(m_labels, tr("Case label"), QStringLiteral("caseLabelDock"));
    if (tabWith)
        tabWith->raise();
    QMenu* file = nullptr;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu() && a->text() == QStringLiteral("&File"))
            file = a->menu();
    if (!file)
        file = window->menuBar()->addMenu(tr("&File"));
    QAction* before = file->actions().isEmpty() ? nullptr : file->actions().last();
    auto* open = new QAction(tr("Open &case\u2026"), file);
    open->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
    connect(open, &QAction::triggered, this, [this, window] { showFleet(window); });
    auto* report = new QAction(tr("Export case &report\u2026"), file);
    connect(report, &QAction::triggered, this, [this, window] { exportInteractive(window); });
    file->insertActions(before, {open, report});
}

void CasesController::onVerdictShown()
{
    if (m_adopting || !m_bundles->analysis() || !m_bundles->analysis()->result)
        return;
    saveAnalysis(m_bundles->analysis()->result);
}

void CasesController::saveAnalysis(const engine::AnalysisSnapshot& result)
{
    views::JobHandlers<Saved> on;
    on.result = [this](const Saved& saved) { onSaved(saved); };
    m_saves.start<Saved>(
        [path = m_storePath.toStdString(), result](QPromise<Saved>& promise, engine::CancelFlag&) {
            Saved saved;
            saved.result = result;
            try {
                saved.hash = store::bundleContentHash(*result);
                auto caseStore = store::SqliteCaseStore::open(path);
                saved.id = caseStore->addCase(store::makeCaseRecord(*result, saved.hash, store::nowNs()));
            } catch (const std::exception& e) {
                saved.error = QString::fromStdString(e.what());
            }
            promise.addResult(std::move(saved));
        },
        std::move(on));
}

void CasesController::onSaved(const Saved& saved)
{
    if (saved.id <= 0) {
        Q_EMIT statusMessage(tr("The case was not saved: %1").arg(saved.error));
        return;
    }
    m_caseId = saved.id;
    m_labels->setCase(saved.id, std::nullopt, true);
    startSearch(saved.hash, saved.result);
    Q_EMIT statusMessage(tr("Saved as case %1 in %2").arg(saved.id).arg(m_storePath));
    Q_EMIT caseSaved(saved.id);
}

void CasesController::startSearch(const std::string& hash, const engine::AnalysisSnapshot& result)
{
    m_search->startIndex(store::SearchIndex::indexPathFor(m_storePath.toStdString(), hash), hash,
                         store::bundleLineSource(*result));
}

bool CasesController::openCase(qint64 id)
{
    try {
        auto caseStore = store::SqliteCaseStore::open(m_storePath.toStdString());
        const auto record = caseStore->getCase(id);
        if (!record) {
            Q_EMIT statusMessage(tr("No case %1 in %2").arg(id).arg(m_storePath));
            return false;
        }
        bool moved = false;
        const auto result = store::caseToResult(*record, &moved);
        m_adopting = true;
        m_bundles->adopt(result, nullptr);
        m_adopting = false;
        m_caseId = id;
        m_labels->setCase(id, record->summary.label, true);
        if (!moved)
            startSearch(record->summary.bundleHash, result);
        Q_EMIT statusMessage(moved ? tr("Case %1 opened read-only: the bundle is no longer at %2; evidence comes from "
                                        "the store")
                                         .arg(id)
                                         .arg(QString::fromStdString(record->summary.bundlePath))
                                   : tr("Case %1 opened from the store (not re-analysed)").arg(id));
        Q_EMIT caseOpened(id, moved);
        return true;
    } catch (const store::StoreError& e) {
        m_adopting = false;
        Q_EMIT statusMessage(QString::fromStdString(e.what()));
        return false;
    }
}

std::vector<store::CaseSummary> CasesController::listCases()
{
    try {
        return store::SqliteCaseStore::open(m_storePath.toStdString())->listCases();
    } catch (const store::StoreError& e) {
        Q_EMIT statusMessage(QString::fromStdString(e.what()));
        return {};
    }
}

void CasesController::saveLabel(qint64 id, const store::CaseLabel& edited)
{
    store::CaseLabel label = edited;
    label.labeledBy = userName();
    label.labeledAt = store::nowNs();
    try {
        store::SqliteCaseStore::open(m_storePath.toStdString())->setLabel(id, label);
        m_labels->setSaveStatus(tr("Case %1: label saved %2").arg(id).arg(QTime::currentTime().toString()));
    } catch (const store::StoreError& e) {
        m_labels->setSaveStatus(QString::fromStdString(e.what()), true);
    }
}

QString CasesController::timelineImagePath(const QString& reportPath)
{
    const QFileInfo info(reportPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-timeline.png"));
}

bool CasesController::exportReport(const QString& path, QString* error)
{
    try {
        const auto record = store::SqliteCaseStore::open(m_storePath.toStdString())->getCase(m_caseId);
        if (!record) {
            *error = tr("no case is open");
            return false;
        }
        const QImage timeline = m_timelineImage ? m_timelineImage() : QImage();
        if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
            return views::writeCaseReportPdf(*record, path, error, timeline);
        QString text;
        if (path.endsWith(QStringLiteral(".md"), Qt::CaseInsensitive)) {
            const QString image = timelineImagePath(path);
            const bool withImage = !timeline.isNull() && timeline.save(image, "PNG");
            text = views::caseReportMarkdown(*record, withImage ? QFileInfo(image).fileName() : QString());
        } else {
            text = views::caseReportHtml(*record, timeline);
        }
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text.toUtf8()) < 0) {
            *error = path + QStringLiteral(": ") + f.errorString();
            return false;
        }
        return true;
    } catch (const store::StoreError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

void CasesController::showFleet(QMainWindow* window)
{
    QDialog dialog(window);
    dialog.setWindowTitle(tr("Cases in %1").arg(m_storePath));
    dialog.resize(1200, 800);
    auto* fleet = new views::FleetView(&dialog);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(fleet);
    fleet->setCases(listCases());
    qint64 chosen = 0;
    connect(fleet, &views::FleetView::caseActivated, &dialog, [&](qint64 id) {
        chosen = id;
        dialog.accept();
    });
    if (dialog.exec() == QDialog::Accepted && chosen > 0)
        openCase(chosen);
}

void CasesController::exportInteractive(QMainWindow* window)
{
    if (m_caseId <= 0) {
        QMessageBox::information(window, tr("Export case report"), tr("Open or analyse a bundle first."));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(window, tr("Export case report"), QStringLiteral("case-%1.html").arg(m_caseId),
                                     tr("HTML (*.html);;Markdown (*.md);;PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportReport(path, &error))
        Q_EMIT statusMessage(tr("Case report written to %1").arg(path));
    else
        QMessageBox::warning(window, tr("Export case report"), error);
}

}  // namespace attrib::app
