// SPDX-License-Identifier: GPL-3.0-or-later
// The live-editing banner: after a catalog reload and re-run it says how the verdict changed (terminal
// state, root cause, each symptom whose status changed); after a broken edit it names the file and line
// and says that the last good catalog stays active.
#pragma once

#include "engine/catalog.h"
#include "engine/verdict_diff.h"

#include <QFrame>

class QLabel;
class QPlainTextEdit;

namespace attrib::views {

class VerdictBanner : public QFrame {
    Q_OBJECT

public:
    enum class Kind { Hidden, Unchanged, Changed, Rejected };

    explicit VerdictBanner(QWidget* parent = nullptr);

    /// A reload that re-ran the analysis; `catalogLine` names the new catalog (version, hash, cases).
    void showDiff(const engine::VerdictDiff& diff, const QString& catalogLine);
    /// A broken edit: its new problems; the previous catalog stays active.
    void showRejected(const std::vector<engine::Diagnostic>& problems);
    void dismiss();

    Kind kind() const { return m_kind; }
    QString headline() const;
    /// Every line of the banner (headline first), as plain text.
    QString text() const;

Q_SIGNALS:
    void dismissed();

private:
    void setColors(const QColor& background, const QColor& border);

    Kind m_kind = Kind::Hidden;
    QLabel* m_headline;
    QPlainTextEdit* m_details;
};

}  // namespace attrib::views
