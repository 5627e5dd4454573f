// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/progress_panel.h"

#include "app/gui/job_controller.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace attrib::app {

ProgressPanel::ProgressPanel(JobController* jobs, QWidget* parent)
    : QWidget(parent)
    , m_stage(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(QStringLiteral("Cancel"), this))
{
    m_stage->setTextFormat(Qt::PlainText);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(180);
    m_bar->setMaximumHeight(14);
    m_cancel->setToolTip(QStringLiteral("Stop the running analysis"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stage);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    setVisible(false);
    connect(m_cancel, &QPushButton::clicked, jobs, &JobController::cancel);
    connect(jobs, &JobController::started, this, [this] {
        m_stage->setText(QStringLiteral("starting"));
        m_bar->setValue(0);
        setVisible(true);
    });
    connect(jobs, &JobController::progressChanged, this, &ProgressPanel::onProgress);
    connect(jobs, &JobController::finished, this, [this] { setVisible(false); });
}

QString ProgressPanel::stageText() const
{
    return m_stage->text();
}

void ProgressPanel::onProgress(const QString& stage, int permille)
{
    if (!stage.isEmpty())
        m_stage->setText(stage + QStringLiteral("\u2026"));
    m_bar->setValue(permille);
}

}  // namespace attrib::app
