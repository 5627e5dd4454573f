// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation of the symptom tree: "show demoted / scrubbed" toggles, text filter, sorting, and the
// colours (dimmed demoted and scrubbed rows, emphasised root cause).
#pragma once

#include <QSortFilterProxyModel>

namespace attrib::views {

class SymptomFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit SymptomFilterProxy(QObject* parent = nullptr);

    bool showDemoted() const { return m_showDemoted; }
    bool showScrubbed() const { return m_showScrubbed; }
    void setShowDemoted(bool show);
    void setShowScrubbed(bool show);
    void setFilterText(const QString& text);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool m_showDemoted = true;
    bool m_showScrubbed = true;
};

}  // namespace attrib::views
