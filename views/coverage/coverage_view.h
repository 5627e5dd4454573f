// SPDX-License-Identifier: GPL-3.0-or-later
// Coverage per collector and node (and file): what was read, skipped, the time span, status and errors.
// Built when on screen (DeferredRefresh): in the workbench it is a background tab behind the evidence, and a
// large bundle's coverage tree cost the GUI thread ~30 ms nobody saw.
#pragma once

#include "views/analysis_data.h"

#include <QWidget>

class QLabel;
class QTreeView;

namespace attrib::views {

class CoverageModel;
class DeferredRefresh;
class SelectionModel;

class CoverageView : public QWidget {
    Q_OBJECT

public:
    explicit CoverageView(SelectionModel* selection, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    /// The model, brought up to date with the selection's analysis first.
    CoverageModel* model();
    /// An analysis arrived while the view was off screen and waits to be shown.
    bool isOutOfDate() const;

Q_SIGNALS:
    /// A file row was activated: show the file.
    void fileActivated(int file);

private:
    void rebuild();

    CoverageModel* m_model;
    QTreeView* m_tree;
    QLabel* m_summary;
    SelectionModel* m_selection;
    DeferredRefresh* m_refresh;
};

}  // namespace attrib::views
