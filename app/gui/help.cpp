// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/help.h"

#include "engine/verdict.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QShortcut>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <map>

namespace attrib::app {

namespace {

struct Bound {
    QKeySequence keys;
    QString name;
    Qt::ShortcutContext context;
    QList<QWidget*> owners;  ///< widgets the shortcut belongs to (empty: window-wide)
};

QString placeOf(const QWidget* widget)
{
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(w))
            return dock->windowTitle();
    }
    return widget && widget->isWindow() ? QStringLiteral("window") : QStringLiteral("Timeline");
}

QList<Bound> boundShortcuts(QWidget* window)
{
    QList<Bound> out;
    for (QAction* action : window->findChildren<QAction*>()) {
        QList<QWidget*> owners;
        for (QObject* o : action->associatedObjects()) {
            if (auto* w = qobject_cast<QWidget*>(o); w && !qobject_cast<QMenu*>(w))
                owners << w;
        }
        const bool local = action->shortcutContext() == Qt::WidgetShortcut ||
            action->shortcutContext() == Qt::WidgetWithChildrenShortcut;
        for (const QKeySequence& keys : action->shortcuts()) {
            if (!keys.isEmpty())
                out.append({keys, action->text().remove(QLatin1Char('&')), action->shortcutContext(),
                            local ? owners : QList<QWidget*>{}});
        }
    }
    for (QShortcut* shortcut : window->findChildren<QShortcut*>()) {
        const bool local =
            shortcut->context() == Qt::WidgetShortcut || shortcut->context() == Qt::WidgetWithChildrenShortcut;
        auto* owner = qobject_cast<QWidget*>(shortcut->parent());
        for (const QKeySequence& keys : shortcut->keys())
            out.append({keys, shortcut->whatsThis().isEmpty() ? shortcut->objectName() : shortcut->whatsThis(),
                        shortcut->context(), local && owner ? QList<QWidget*>{owner} : QList<QWidget*>{}});
    }
    return out;
}

bool nested(const QWidget* a, const QWidget* b)
{
    return a == b || a->isAncestorOf(b) || b->isAncestorOf(a);
}

bool canClash(const Bound& a, const Bound& b)
{
    if (a.owners.isEmpty() || b.owners.isEmpty())
        return true;  // a window-wide shortcut is active wherever the other one is
    for (const QWidget* x : a.owners) {
        for (const QWidget* y : b.owners) {
            if (nested(x, y))
                return true;
        }
    }
    return false;
}

}  // namespace

QStringList shortcutCollisions(QWidget* window)
{
    const QList<Bound> all = boundShortcuts(window);
    QStringList out;
    for (qsizetype i = 0; i < all.size(); ++i) {
        for (qsizetype j = i + 1; j < all.size(); ++j) {
            if (all[i].keys != all[j].keys || !canClash(all[i], all[j]))
                continue;
            out << QStringLiteral("%1: %2 (%3) / %4 (%5)")
                       .arg(all[i].keys.toString(QKeySequence::PortableText), all[i].name,
                            all[i].owners.isEmpty() ? QStringLiteral("window") : placeOf(all[i].owners.front()),
                            all[j].name,
                            all[j].owners.isEmpty() ? QStringLiteral("window") : placeOf(all[j].owners.front()));
        }
    }
    return out;
}

QList<ShortcutEntry> collectShortcuts(QWidget* window)
{
    std::map<std::pair<QString, QString>, ShortcutEntry> unique;  // (where, keys) -> entry
    for (const Bound& b : boundShortcuts(window)) {
        const QString where = b.owners.isEmpty() ? QStringLiteral("window") : placeOf(b.owners.front());
        const QString keys = b.keys.toString(QKeySequence::NativeText);
        unique.emplace(std::pair{where, keys}, ShortcutEntry{keys, b.name, where});
    }
    QList<ShortcutEntry> out;
    for (const auto& [key, entry] : unique)
        out << entry;
    // Keys the views handle themselves (no action object).
    const QString timeline = QStringLiteral("Timeline (click it first)");
    out << ShortcutEntry{QStringLiteral("\u2190 \u2192 / A D"), QStringLiteral("Pan time"), timeline}
        << ShortcutEntry{QStringLiteral("+ \u2212 / W S"), QStringLiteral("Zoom time"), timeline}
        << ShortcutEntry{QStringLiteral("\u2191 \u2193, Page Up/Down"), QStringLiteral("Scroll nodes"), timeline}
        << ShortcutEntry{QStringLiteral("\u2191 \u2193, Page Up/Down, Home, End"), QStringLiteral("Move through lines"),
                         QStringLiteral("Evidence lines")}
        << ShortcutEntry{QStringLiteral("Shift+\u2191 \u2193, Shift+click"), QStringLiteral("Select several lines"),
                         QStringLiteral("Evidence lines")}
        << ShortcutEntry{QStringLiteral("Enter"), QStringLiteral("Open an evidence line in its file"),
                         QStringLiteral("Evidence lines")}
        << ShortcutEntry{QStringLiteral("Esc"),
                         QStringLiteral("Leave a text field (press again to cancel an analysis)"),
                         QStringLiteral("window")};
    return out;
}

void showShortcutsDialog(QWidget* window)
{
    QDialog dialog(window);
    dialog.setWindowTitle(QStringLiteral("Keyboard shortcuts"));
    const QList<ShortcutEntry> entries = collectShortcuts(window);
    auto* table = new QTableWidget(static_cast<int>(entries.size()), 3, &dialog);
    table->setHorizontalHeaderLabels({QStringLiteral("Keys"), QStringLiteral("Action"), QStringLiteral("Where")});
    for (int row = 0; row < entries.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(entries[row].keys));
        table->setItem(row, 1, new QTableWidgetItem(entries[row].action));
        table->setItem(row, 2, new QTableWidgetItem(entries[row].where));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(640, 560);
    dialog.exec();
}

void showUserGuide(QWidget* window, const QString& heading)
{
    QFile file(QStringLiteral(":/docs/user-guide.md"));
    QDialog dialog(window);
    dialog.setWindowTitle(QStringLiteral("Attribution Workbench \u2014 user guide"));
    auto* browser = new QTextBrowser(&dialog);
    browser->setOpenExternalLinks(true);
    if (file.open(QIODevice::ReadOnly))
        browser->setMarkdown(QString::fromUtf8(file.readAll()));
    else
        browser->setPlainText(QStringLiteral("The user guide is missing from this build (docs/user-guide.md)."));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    dialog.resize(760, 640);
    if (const QTextCursor at = heading.isEmpty() ? QTextCursor() : browser->document()->find(heading); !at.isNull()) {
        // From the end back to the heading, so that the section starts at the top of the view.
        dialog.show();
        browser->moveCursor(QTextCursor::End);
        browser->setTextCursor(at);
    }
    dialog.exec();
}

namespace {

QString catalogVersion(const QString& rulesDir)
{
    QFile file(QDir(rulesDir).filePath(QStringLiteral("catalog.json")));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("unreadable");
    const QString version = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("version")).toString();
    return version.isEmpty() ? QStringLiteral("unknown") : version;
}

}  // namespace

void showAbout(QWidget* window, const QString& rulesDir, const engine::EngineInfo* analysed)
{
    QMessageBox box(window);
    box.setWindowTitle(QStringLiteral("About Attribution Workbench"));
    box.setTextFormat(Qt::PlainText);
    const QString catalog = analysed ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(analysed->catalogVersion),
                                                                     QString::fromStdString(analysed->catalogHash))
                                     : catalogVersion(rulesDir);
    box.setText(
        QStringLiteral("Attribution Workbench %1\nFinds why a distributed training job failed from its logs.\n\n"
                       "Engine %1, rule catalog %2\nfrom %3\n\n"
                       "Licence: GPL-3.0-or-later. Plots by QCustomPlot. Colours: Okabe & Ito's "
                       "colour-blind-safe palette.")
            .arg(QString::fromLatin1(engine::engineVersion()), catalog, QDir::toNativeSeparators(rulesDir)));
    box.exec();
}

}  // namespace attrib::app
