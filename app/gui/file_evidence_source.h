// SPDX-License-Identifier: GPL-3.0-or-later
// EvidenceSource over the bundle on disk: per-file line indexes built lazily in the background, lines read by
// offset, rule-matched spans from the catalog's extractor patterns, background text search. Plain files are
// read at the offset directly; compressed files and archive members are decompressed again from their start
// (importers::openBundleFile), a screenful block at a time.
#pragma once

#include "app/gui/line_index.h"
#include "engine/catalog.h"
#include "engine/verdict.h"
#include "views/evidence/evidence_source.h"

#include <QThreadPool>

#include <memory>
#include <optional>
#include <vector>

namespace attrib::app {

class FileEvidenceSource : public views::EvidenceSource {
    Q_OBJECT

public:
    /// `files` are the bundle's files in engine order; `catalog` may be null (no span highlighting).
    FileEvidenceSource(std::vector<engine::BundleFile> files, engine::CatalogPtr catalog, QObject* parent = nullptr);
    ~FileEvidenceSource() override;

    void setCatalog(engine::CatalogPtr catalog) { m_catalog = std::move(catalog); }
    /// Whether this source reads the same files as `files` (a new analysis of the same bundle).
    bool sameFiles(const std::vector<engine::BundleFile>& files) const;

    int fileCount() const override;
    QString filePath(int file) const override;
    views::LineCount lineCount(int file) override;
    QStringList readLines(int file, qint64 first, qint64 count) override;
    QString readRecord(int file, quint64 offset, quint32 length) override;
    QList<views::TextSpan> matchSpans(engine::SourceKind kind, const QString& text) const override;
    QFuture<QVector<qint64>> findLines(int file, const views::LineQuery& query) override;

private:
    /// How a file can be re-read.
    enum class Access { Seekable, Stream, Unavailable };
    struct FileAccess {
        Access access = Access::Unavailable;
        QString problem;
    };
    /// Decided on first use: a bundle may hold many files and most are never opened in the view.
    const FileAccess& access(int file) const;
    QStringList readStreamLines(int file, qint64 first, qint64 count);
    QStringList decodeLines(const importers::ReadFn& read, qint64 checkpointLine, qint64 first, qint64 count) const;

    /// Lines decoded from a compressed file or archive member, kept so that scrolling does not decompress again.
    struct Block {
        int file = -1;
        qint64 first = 0;
        QStringList lines;
    };

    std::vector<engine::BundleFile> m_files;
    engine::CatalogPtr m_catalog;
    std::vector<std::unique_ptr<LineIndex>> m_indexes;
    mutable std::vector<std::optional<FileAccess>> m_access;
    Block m_block;
    QThreadPool m_pool;
};

}  // namespace attrib::app
