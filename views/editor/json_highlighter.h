// SPDX-License-Identifier: GPL-3.0-or-later
// JSON syntax highlighting for rule files: keys, strings, numbers, literals, punctuation.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace attrib::views {

class JsonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

public:
    explicit JsonHighlighter(QTextDocument* parent);

    enum class Token { Key, String, Number, Literal, Punctuation };
    /// The format used for a token kind (tests check that keys and strings differ).
    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString& text) override;

private:
    int stringEnd(const QString& text, int start) const;

    QTextCharFormat m_key, m_string, m_number, m_literal, m_punctuation;
};

}  // namespace attrib::views
