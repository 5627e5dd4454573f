// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/bench/rules_workspace.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStandardPaths>

#include <algorithm>

namespace attrib::bench {
namespace {

// Written beside the copied catalog: where it came from and the hash of what was copied.
const QString ManifestName = QStringLiteral(".rules-copy");

QStringList catalogFiles(const QString& dir)
{
    QStringList files;
    QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
    const QDir root(dir);
    while (it.hasNext())
        files << root.relativeFilePath(it.next());
    std::sort(files.begin(), files.end());
    return files;
}

struct Manifest {
    QString shipped;
    QString baseHash;
};

Manifest readManifest(const QString& copyRoot)
{
    QFile file(QDir(copyRoot).filePath(ManifestName));
    Manifest m;
    if (!file.open(QIODevice::ReadOnly))
        return m;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.startsWith("shipped="))
            m.shipped = QString::fromUtf8(line.mid(8));
        else if (line.startsWith("base="))
            m.baseHash = QString::fromUtf8(line.mid(5));
    }
    return m;
}

// Copies every catalog file into a fresh folder beside `copyRoot`, then swaps it in, so that a failed copy
// leaves the previous one whole.
bool copyCatalog(const QString& from, const QString& copyRoot, QString* error)
{
    const QString staging = copyRoot + QStringLiteral(".new");
    QDir(staging).removeRecursively();
    const QDir src(from), dst(staging);
    const QStringList files = catalogFiles(from);
    if (files.isEmpty()) {
        *error = QCoreApplication::translate("RulesWorkspace", "%1 holds no rule files").arg(from);
        return false;
    }
    for (const QString& rel : files) {
        const QString target = dst.filePath(rel);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(src.filePath(rel), target)) {
            *error = QCoreApplication::translate("RulesWorkspace", "cannot write %1").arg(target);
            QDir(staging).removeRecursively();
            return false;
        }
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    QFile manifest(dst.filePath(ManifestName));
    if (!manifest.open(QIODevice::WriteOnly) ||
        manifest.write(QStringLiteral("shipped=%1\nbase=%2\n").arg(from, catalogContentHash(from)).toUtf8()) < 0) {
        *error = QCoreApplication::translate("RulesWorkspace", "cannot write %1").arg(manifest.fileName());
        QDir(staging).removeRecursively();
        return false;
    }
    manifest.close();
    QDir(copyRoot).removeRecursively();
    if (!QDir().rename(staging, copyRoot)) {
        *error = QCoreApplication::translate("RulesWorkspace", "cannot create %1").arg(copyRoot);
        return false;
    }
    return true;
}

QString copyNote(const RulesWorkspace& w)
{
    QString note = QCoreApplication::translate("RulesWorkspace",
                                               "Editing your copy of the catalog in %1; the shipped catalog in %2 "
                                               "is not changed (start with --rules DIR to edit another folder).")
                       .arg(QDir::toNativeSeparators(w.dir), QDir::toNativeSeparators(w.shipped));
    if (w.behindShipped)
        note += QLatin1Char(' ') +
            QCoreApplication::translate("RulesWorkspace",
                                        "Your copy has edits and was made from an older shipped catalog: "
                                        "Rules \u203a Reset rules copy takes the current one.");
    return note;
}

}  // namespace

QString catalogContentHash(const QString& dir)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const QDir root(dir);
    for (const QString& rel : catalogFiles(dir)) {
        QFile file(root.filePath(rel));
        hash.addData(rel.toUtf8());
        hash.addData(QByteArrayView("\0", 1));
        if (file.open(QIODevice::ReadOnly))
            hash.addData(&file);
        hash.addData(QByteArrayView("\0", 1));
    }
    return QString::fromLatin1(hash.result().toHex());
}

QString defaultRulesCopyRoot()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("rules"));
}

RulesWorkspace prepareRulesWorkspace(const QString& rulesDir, bool chosen, const QString& copyRoot)
{
    RulesWorkspace w;
    if (chosen) {
        w.dir = rulesDir;
        w.note = QCoreApplication::translate(
                     "RulesWorkspace", "Editing %1 (chosen with --rules or ATTRIB_RULES): saving changes these files.")
                     .arg(QDir::toNativeSeparators(rulesDir));
        return w;
    }
    w.shipped = rulesDir;
    w.dir = copyRoot;
    w.isCopy = true;
    const Manifest manifest = readManifest(copyRoot);
    const QString shippedHash = catalogContentHash(rulesDir);
    QString error;
    if (manifest.baseHash.isEmpty() || !QFileInfo::exists(QDir(copyRoot).filePath(QStringLiteral("catalog.json")))) {
        if (!copyCatalog(rulesDir, copyRoot, &error)) {
            RulesWorkspace fallback;
            fallback.dir = rulesDir;
            fallback.note =
                QCoreApplication::translate("RulesWorkspace", "Could not copy the catalog (%1): editing %2 in place.")
                    .arg(error, QDir::toNativeSeparators(rulesDir));
            return fallback;
        }
    } else if (manifest.baseHash != shippedHash) {
        // The shipped catalog changed since the copy was made: follow it unless the author edited the copy.
        if (catalogContentHash(copyRoot) == manifest.baseHash)
            copyCatalog(rulesDir, copyRoot, &error);
        else
            w.behindShipped = true;
    }
    w.note = copyNote(w);
    return w;
}

bool resetRulesCopy(RulesWorkspace& workspace, QString* error)
{
    if (!workspace.isCopy)
        return false;
    QString why;
    if (!copyCatalog(workspace.shipped, workspace.dir, &why)) {
        if (error)
            *error = why;
        return false;
    }
    workspace.behindShipped = false;
    workspace.note = copyNote(workspace);
    return true;
}

}  // namespace attrib::bench
