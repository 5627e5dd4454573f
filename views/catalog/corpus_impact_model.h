// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus impact of a catalog change (the `attrib replay` table): per bundle, both verdicts and each
// symptom whose status changed.
#pragma once

#include "engine/corpus_impact.h"

#include <QAbstractTableModel>

namespace attrib::views {

class CorpusImpactModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { BundleColumn, ResultColumn, BaselineColumn, NewColumn, ChangesColumn, ColumnCount };
    enum Roles { ChangedRole = Qt::UserRole, BundlePathRole };

    explicit CorpusImpactModel(QObject* parent = nullptr);

    void setImpact(engine::CorpusImpact impact);
    const engine::CorpusImpact& impact() const { return m_impact; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    engine::CorpusImpact m_impact;
};

}  // namespace attrib::views
