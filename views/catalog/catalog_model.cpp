// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/catalog/catalog_model.h"

#include "views/presentation.h"

#include <QColor>
#include <QDir>
#include <QFont>

#include <map>
#include <set>

namespace attrib::views {

struct CatalogModel::Item {
    Kind kind = Kind::Group;
    QString name, cases, source, description, ruleId, file;
    int line = 0;
    bool failed = false;
    Item* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Item>> children;

    Item* add(Kind k, QString n)
    {
        auto child = std::make_unique<Item>();
        child->kind = k;
        child->name = std::move(n);
        child->parent = this;
        child->row = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
};

CatalogModel::CatalogModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Item>())
{
}

CatalogModel::~CatalogModel() = default;

void CatalogModel::setCatalog(engine::CatalogPtr catalog)
{
    beginResetModel();
    m_catalog = std::move(catalog);
    m_root = std::make_unique<Item>();
    if (m_catalog)
        build();
    endResetModel();
}

CatalogModel::Item* CatalogModel::addRule(Item* group, const std::string& id, const std::string& description,
                                          const engine::Location& where)
{
    Item* rule = group->add(Kind::Rule, qs(id));
    rule->ruleId = qs(id);
    rule->description = qs(description);
    rule->source = qs(where.str());
    rule->file = QDir(qs(m_catalog->directory())).filePath(qs(where.file));
    rule->line = where.line;
    addCases(rule, id);
    return rule;
}

void CatalogModel::addCases(Item* rule, const std::string& id)
{
    int total = 0, failed = 0;
    for (const auto& r : m_catalog->caseResults()) {
        if (r.rule != id)
            continue;
        Item* c = rule->add(Kind::Case, qs(r.name));
        c->cases = r.passed ? tr("pass") : tr("FAIL");
        c->failed = !r.passed;
        c->description = qs(r.failure);
        c->source = qs(r.where.str());
        c->file = QDir(qs(m_catalog->directory())).filePath(qs(r.where.file));
        c->line = r.where.line;
        ++total;
        failed += !r.passed;
    }
    for (const auto& d : m_catalog->diagnostics()) {
        if (d.rule != id || d.message.rfind("inline case", 0) == 0)
            continue;  // failing cases are already listed as case rows
        Item* p =
            rule->add(Kind::Problem, d.severity == engine::Diagnostic::Severity::Error ? tr("error") : tr("warning"));
        p->failed = d.severity == engine::Diagnostic::Severity::Error;
        p->description = qs(d.message);
        p->source = qs(d.where.str());
        p->file = QDir(qs(m_catalog->directory())).filePath(qs(d.where.file));
        p->line = d.where.line;
        failed += p->failed;
    }
    rule->failed = failed > 0;
    rule->cases = failed > 0 ? tr("%1 of %2 failed").arg(failed).arg(total) : tr("%1/%1 pass").arg(total);
}

void CatalogModel::addLeftOut()
{
    std::set<std::string> loaded;
    for (const auto& x : m_catalog->extractors())
        loaded.insert(x.id);
    for (const auto& c : m_catalog->codeRules())
        loaded.insert(c.id);
    for (const auto& r : m_catalog->refineRules())
        loaded.insert(r.id);
    for (const auto& t : m_catalog->priorityTables())
        loaded.insert(t.id);
    std::map<std::string, engine::Location> missing;
    for (const auto& r : m_catalog->caseResults())
        if (!loaded.count(r.rule))
            missing.emplace(r.rule, r.where);
    for (const auto& d : m_catalog->diagnostics())
        if (d.severity == engine::Diagnostic::Severity::Error && !loaded.count(d.rule) && !m_catalog->symptom(d.rule))
            missing.emplace(d.rule.empty() ? d.where.file : d.rule, d.where);
    if (missing.empty())
        return;
    Item* group = m_root->add(Kind::Group, tr("left out (%1)").arg(missing.size()));
    group->failed = true;
    group->description = tr("rules or files not used: an inline case failed, a pattern did not compile or the file is "
                            "invalid");
    for (const auto& [id, where] : missing) {
        Item* rule = addRule(group, id, "", where);
        rule->failed = true;
        rule->cases = tr("left out");
        if (rule->children.empty())
            for (const auto& d : m_catalog->diagnostics())
                if (d.where.file == id && d.rule.empty()) {
                    Item* p = rule->add(Kind::Problem, tr("error"));
                    p->failed = true;
                    p->description = qs(d.message);
                    p->source = qs(d.where.str());
                    p->file = rule->file;
                    p->line = d.where.line;
                }
    }
}

void CatalogModel::build()
{
    Item* registry = m_root->add(Kind::Group, QString());
    for (const auto& [name, def] : m_catalog->symptoms()) {
        Item* s = registry->add(Kind::Rule, qs(name));
        s->cases = qs(def.domain) + QStringLiteral(" \u00b7 ") + QString::number(def.priority) +
            QStringLiteral(" \u00b7 ") + qs(def.terminalState);
        s->description = qs(def.description);
        s->source = qs(def.where.str());
        s->file = QDir(qs(m_catalog->directory())).filePath(qs(def.where.file));
        s->line = def.where.line;
    }
    registry->name = tr("symptom registry (%1)").arg(registry->children.size());
    std::map<engine::TracePhase, Item*> groups;
    auto group = [&](engine::TracePhase phase) {
        auto it = groups.find(phase);
        if (it == groups.end())
            it = groups.emplace(phase, m_root->add(Kind::Group, qs(toString(phase)))).first;
        return it->second;
    };
    for (const auto phase : {engine::TracePhase::Extract, engine::TracePhase::Early, engine::TracePhase::Scrub,
                             engine::TracePhase::Refine, engine::TracePhase::Priority})
        group(phase);
    for (const auto& x : m_catalog->extractors())
        addRule(group(engine::TracePhase::Extract), x.id, x.description, x.where);
    for (const auto& c : m_catalog->codeRules())
        addRule(group(c.phase), c.id, c.rule ? c.rule->description() : std::string(), c.where);
    for (const auto& r : m_catalog->refineRules())
        addRule(group(r.phase), r.id, r.description, r.where);
    for (const auto& t : m_catalog->priorityTables())
        addRule(group(engine::TracePhase::Priority), t.id, t.description, t.where);
    for (auto& [phase, item] : groups) {
        int failed = 0;
        for (const auto& r : item->children)
            failed += r->failed;
        item->name =
            qs(toString(phase)) + QStringLiteral(" (") + QString::number(item->children.size()) + QLatin1Char(')');
        item->cases = failed ? tr("%1 failing").arg(failed) : tr("all pass");
        item->failed = failed > 0;
    }
    addLeftOut();
}

QModelIndex CatalogModel::findRule(const QString& id) const
{
    for (const auto& g : m_root->children)
        for (const auto& r : g->children)
            if (r->kind == Kind::Rule && r->ruleId == id)
                return createIndex(r->row, 0, r.get());
    return {};
}

CatalogModel::Item* CatalogModel::itemAt(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Item*>(index.internalPointer()) : m_root.get();
}

QModelIndex CatalogModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    const Item* p = itemAt(parent);
    if (row >= static_cast<int>(p->children.size()))
        return {};
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex CatalogModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const Item* p = itemAt(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, const_cast<Item*>(p));
}

int CatalogModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(itemAt(parent)->children.size());
}

int CatalogModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant CatalogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Item* item = itemAt(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return item->name;
        case CasesColumn: return item->cases;
        case SourceColumn: return item->source;
        case DescriptionColumn: return item->description;
        }
        break;
    case Qt::ToolTipRole: return item->description.isEmpty() ? QVariant() : QVariant(plainToolTip(item->description));
    case Qt::ForegroundRole:
        if (item->failed && (index.column() == CasesColumn || item->kind != Kind::Group))
            return QColor(0xc6, 0x28, 0x28);
        if (item->kind == Kind::Case && index.column() == CasesColumn)
            return QColor(0x2e, 0x7d, 0x32);
        return {};
    case Qt::FontRole:
        if (item->kind == Kind::Group) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case RuleIdRole: return item->ruleId;
    case FileRole: return item->file;
    case LineRole: return item->line;
    case KindRole: return static_cast<int>(item->kind);
    case FailedRole: return item->failed;
    }
    return {};
}

QVariant CatalogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Rule");
    case CasesColumn: return tr("Inline cases");
    case SourceColumn: return tr("Source");
    case DescriptionColumn: return tr("Description / failing expectation");
    }
    return {};
}

}  // namespace attrib::views
