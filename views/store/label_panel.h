// SPDX-License-Identifier: GPL-3.0-or-later
// The analyst's label for the open case: true terminal state, sub-domain, node and notes. Every edit is saved
// shortly after typing stops (labelEdited); a read-only case shows the label without editing.
#pragma once

#include "engine/store/case_store.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTimer;

namespace attrib::views {

class LabelPanel : public QWidget {
    Q_OBJECT

public:
    explicit LabelPanel(QWidget* parent = nullptr);

    /// Shows case `caseId` (0: no case) with its label; `editable` false for a read-only store.
    void setCase(qint64 caseId, const std::optional<store::CaseLabel>& label, bool editable);
    qint64 caseId() const { return m_caseId; }
    /// The label as currently entered (labeledBy / labeledAt are left for the saver).
    store::CaseLabel currentLabel() const;
    /// Shows the outcome of the last save ("saved 12:01:33" or the error).
    void setSaveStatus(const QString& text, bool error = false);
    /// Emits a pending edit now (before the case changes or the window closes).
    void flush();

    QComboBox* stateBox() const { return m_state; }
    QComboBox* domainBox() const { return m_domain; }
    QLineEdit* nodeEdit() const { return m_node; }
    QPlainTextEdit* notesEdit() const { return m_notes; }

Q_SIGNALS:
    void labelEdited(qint64 caseId, const attrib::store::CaseLabel& label);

private:
    void edited();

    QComboBox* m_state;
    QComboBox* m_domain;
    QLineEdit* m_node;
    QPlainTextEdit* m_notes;
    QLabel* m_status;
    QTimer* m_debounce;
    qint64 m_caseId = 0;
    bool m_loading = false;
};

}  // namespace attrib::views
