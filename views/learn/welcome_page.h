// SPDX-License-Identifier: GPL-3.0-or-later
// The first thing the workbench shows: open a bundle, open a sample, take the tour, the recent bundles with the
// verdict each got last time, and one paragraph on what a bundle is (with a link to the collection guide).
#pragma once

#include <QList>
#include <QWidget>

class QBoxLayout;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace attrib::views {

struct RecentEntry {
    QString path;
    QString terminalState;  ///< last verdict (empty: never analysed to the end)
    QString subDomain;
    bool exists = true;
};

class WelcomePage : public QWidget {
    Q_OBJECT

public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void setRecent(const QList<RecentEntry>& entries);

    QPushButton* openBundleButton() const { return m_openBundle; }
    QPushButton* openSampleButton() const { return m_openSample; }
    QPushButton* tourButton() const { return m_tour; }
    QTreeWidget* recentList() const { return m_recent; }

protected:
    void resizeEvent(QResizeEvent* event) override;

Q_SIGNALS:
    void openBundleRequested();
    void openSampleRequested();
    void tourRequested();
    void recentActivated(const QString& path);
    void collectionGuideRequested();

private:
    QWidget* buildActions();
    QWidget* buildBundleNote();

    QBoxLayout* m_buttons = nullptr;  ///< side by side, or stacked in a narrow window
    QPushButton* m_openBundle;
    QPushButton* m_openSample;
    QPushButton* m_tour;
    QTreeWidget* m_recent;
    QLabel* m_noRecent;
};

}  // namespace attrib::views
