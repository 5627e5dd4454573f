// SPDX-License-Identifier: GPL-3.0-or-later
// Full-text search over every line of the bundle: the index is built (or reused) in the background with
// progress and cancel; results are grouped by node and file; Enter / F3 / Shift+F3 step through the hits and
// activating one asks for the evidence view at that line. The second mode (Regex) streams an RE2 expression
// over the same lines in the background, cancellable.
#pragma once

#include "engine/store/search_index.h"
#include "views/job_runner.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace attrib::views {

class SearchPanel : public QWidget {
    Q_OBJECT

public:
    explicit SearchPanel(QWidget* parent = nullptr);
    ~SearchPanel() override;

    /// Builds or reuses the index at `indexPath` in a background thread; the search box works once it is ready.
    void startIndex(const std::string& indexPath, const std::string& bundleHash, store::LineSource source);
    /// Stops a running build (nothing is left behind).
    void cancelIndex();
    /// Uses an index that is already open (tests, or a reopened case).
    void setIndex(std::shared_ptr<store::SearchIndex> index);
    bool ready() const { return m_index != nullptr; }

    /// Runs the query: substring search in the index at once (returns the number of hits), or in regex mode
    /// a background scan (returns -1; searchFinished tells when it is done). Both emit searchFinished.
    int search(const QString& text);
    void setRegexMode(bool regex);
    bool regexMode() const;
    /// Stops a running regex scan (its hits so far stay shown).
    void cancelSearch();
    bool searching() const { return m_scanning; }
    /// Moves to the next / previous hit (F3 / Shift+F3) and activates it.
    void nextHit(bool backwards = false);

    QLineEdit* searchBox() const { return m_box; }
    QTreeWidget* results() const { return m_results; }
    QLabel* status() const { return m_status; }
    QCheckBox* regexToggle() const { return m_regex; }
    QCheckBox* caseToggle() const { return m_case; }

Q_SIGNALS:
    /// A hit was activated: show this bundle file (index into the analysis' files) at this line.
    void hitActivated(int file, qulonglong line);
    void indexReady();
    void searchFinished(int hits);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// What a background index build or regex scan hands back.
    struct Built {
        std::shared_ptr<store::SearchIndex> index;
        QString error;
    };
    struct Scanned {
        std::vector<store::SearchHit> hits;
        bool cancelled = false;
        std::uint64_t linesScanned = 0;
        bool truncated = false;
        std::vector<std::string> unreadable;  ///< files that could not be read
        QString error;                        ///< the pattern did not compile, or the store failed
        qint64 ms = 0;
    };
    QString scanNote(const Scanned& scanned) const;
    void finishBuild(std::shared_ptr<store::SearchIndex> index, const QString& error, bool cancelled);
    QTreeWidgetItem* groupItem(QTreeWidgetItem* parent, const QString& text);
    void startRegexScan(const QString& pattern);
    void finishRegexScan(const QString& pattern, const std::vector<store::SearchHit>& hits, const QString& note,
                         qint64 ms);
    void showWorking(const QString& format, const QString& status);
    void showHits(const std::vector<store::SearchHit>& hits);

    QLineEdit* m_box;
    QTreeWidget* m_results;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QCheckBox* m_regex;
    QCheckBox* m_case;
    std::shared_ptr<store::SearchIndex> m_index;
    JobRunner m_indexJob{this};  ///< index builds: a new bundle's build supersedes the last one
    JobRunner m_scanJob{this};   ///< regex scans: a new query supersedes the running scan
    bool m_scanning = false;     ///< a scan started and its hits are not shown yet
    std::vector<QTreeWidgetItem*> m_hitItems;
    int m_current = -1;
};

}  // namespace attrib::views
