// SPDX-License-Identifier: GPL-3.0-or-later
// Coverage per collector and node (and file): what was read, skipped, the time span, status and errors.
#pragma once

#include "views/analysis_data.h"

#include <QWidget>

class QLabel;
class QTreeView;

namespace attrib::views {

class CoverageModel;
class SelectionModel;

class CoverageView : public QWidget {
    Q_OBJECT

public:
    explicit CoverageView(SelectionModel* selection, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    CoverageModel* model() const { return m_model; }

Q_SIGNALS:
    /// A file row was activated: show the file.
    void fileActivated(int file);

private:
    void onAnalysisChanged(const AnalysisPtr& analysis);

    CoverageModel* m_model;
    QTreeView* m_tree;
    QLabel* m_summary;
};

}  // namespace attrib::views
