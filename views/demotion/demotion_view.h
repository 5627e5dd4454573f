// SPDX-License-Identifier: GPL-3.0-or-later
// Symptoms by status (active, demoted, scrubbed) with the rule and reason that set it. Toggles hide
// demoted or scrubbed symptoms; selecting a symptom selects it everywhere.
#pragma once

#include "views/selection_model.h"

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QTreeView;

namespace attrib::views {

class SymptomFilterProxy;
class SymptomTreeModel;

class DemotionView : public QWidget {
    Q_OBJECT

public:
    explicit DemotionView(SelectionModel* selection, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    SymptomTreeModel* model() const { return m_model; }
    SymptomFilterProxy* proxy() const { return m_proxy; }
    QCheckBox* showDemotedBox() const { return m_showDemoted; }
    QCheckBox* showScrubbedBox() const { return m_showScrubbed; }

private:
    void onAnalysisChanged(const AnalysisPtr& analysis);
    void onSelectionChanged(const Selection& selection);
    void onCurrentChanged(const QModelIndex& current);
    void spanGroups();

    SelectionModel* m_selection;
    SymptomTreeModel* m_model;
    SymptomFilterProxy* m_proxy;
    QTreeView* m_tree;
    QCheckBox* m_showDemoted;
    QCheckBox* m_showScrubbed;
    QLineEdit* m_filter;
    bool m_syncing = false;
};

}  // namespace attrib::views
