// SPDX-License-Identifier: GPL-3.0-or-later
// The rule catalog as a tree: phase groups (symptom registry, extract, early, scrub, refine, priority,
// left out) -> rules (description, source file and line, case results) -> inline cases (pass/fail with
// the failing expectation) and load problems.
#pragma once

#include "engine/catalog.h"

#include <QAbstractItemModel>

#include <memory>

namespace attrib::views {

class CatalogModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Columns { NameColumn, CasesColumn, SourceColumn, DescriptionColumn, ColumnCount };
    enum Roles { RuleIdRole = Qt::UserRole, FileRole, LineRole, KindRole, FailedRole };
    enum class Kind { Group, Rule, Case, Problem };

    explicit CatalogModel(QObject* parent = nullptr);
    ~CatalogModel() override;

    void setCatalog(engine::CatalogPtr catalog);
    const engine::CatalogPtr& catalog() const { return m_catalog; }
    /// Index (column 0) of a rule by id; invalid when absent.
    QModelIndex findRule(const QString& id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Item;

private:
    void build();
    Item* addRule(Item* group, const std::string& id, const std::string& description, const engine::Location& where);
    void addCases(Item* rule, const std::string& id);
    void addLeftOut();
    Item* itemAt(const QModelIndex& index) const;

    engine::CatalogPtr m_catalog;
    std::unique_ptr<Item> m_root;
};

}  // namespace attrib::views
