// SPDX-License-Identifier: GPL-3.0-or-later
// Status-bar progress of the running analysis: stage name, bar, Cancel.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace attrib::app {

class JobController;

class ProgressPanel : public QWidget {
    Q_OBJECT

public:
    explicit ProgressPanel(JobController* jobs, QWidget* parent = nullptr);

    QString stageText() const;
    QPushButton* cancelButton() const { return m_cancel; }

private:
    void onProgress(const QString& stage, int permille);

    QLabel* m_stage;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

}  // namespace attrib::app
