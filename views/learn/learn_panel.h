// SPDX-License-Identifier: GPL-3.0-or-later
// The Learn panel: the annotated samples grouped by failure domain; the selected sample's lesson (Markdown with
// raw HTML off, so log text stays literal); "Open this sample"; and, once the sample's analysis is shown, the
// expected verdict next to the one the engine produced, so a newcomer sees the engine agree with the lesson.
#pragma once

#include "views/learn/sample_library.h"

#include <nlohmann/json.hpp>

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace attrib::views {

class LearnPanel : public QWidget {
    Q_OBJECT

public:
    explicit LearnPanel(QWidget* parent = nullptr);

    void setLibrary(SampleLibrary library);
    const SampleLibrary& library() const { return m_library; }
    /// Selects the sample by folder name; false when there is none of that name.
    bool selectSample(const QString& name);
    /// The selected sample, or nullptr.
    const SampleInfo* currentSample() const;
    /// Shows expected vs actual when `bundlePath` is one of the samples (and selects it). Returns the
    /// differences (empty: the engine agrees with the lesson); an empty list too when it is not a sample.
    QStringList showActual(const QString& bundlePath, const nlohmann::ordered_json& verdict);
    /// Whether `bundlePath` is one of the lessons' samples (only those are compared with a verdict).
    bool isSample(const QString& bundlePath) const { return sampleAt(bundlePath) != nullptr; }
    /// True while the comparison table shows the engine agreeing with the selected sample's lesson.
    bool agrees() const { return m_agrees; }

    QTreeWidget* sampleTree() const { return m_tree; }
    QTextBrowser* lessonView() const { return m_lesson; }
    QPushButton* openButton() const { return m_open; }
    QLabel* comparisonLabel() const { return m_compare; }

Q_SIGNALS:
    void openSampleRequested(const QString& path);

private:
    void buildTree();
    void showSample(const SampleInfo* sample);
    void fillComparison(const SampleInfo& sample, const nlohmann::ordered_json& verdict, const QStringList& diffs);
    const SampleInfo* sampleAt(const QString& path) const;

    SampleLibrary m_library;
    QTreeWidget* m_tree;
    QLabel* m_title;
    QLabel* m_expected;
    QPushButton* m_open;
    QLabel* m_agreement;
    QLabel* m_compare;
    QTextBrowser* m_lesson;
    QString m_current;  ///< folder name
    bool m_agrees = false;
};

}  // namespace attrib::views
