// SPDX-License-Identifier: GPL-3.0-or-later
// A single-pass scanner per line: rule files keep each string on one line, so no block state is needed.
#include "views/editor/json_highlighter.h"

namespace attrib::views {

JsonHighlighter::JsonHighlighter(QTextDocument* parent)
    : QSyntaxHighlighter(parent)
{
    m_key.setForeground(QColor(0x1a, 0x4f, 0x8b));
    m_key.setFontWeight(QFont::DemiBold);
    m_string.setForeground(QColor(0x2e, 0x7d, 0x32));
    m_number.setForeground(QColor(0xad, 0x14, 0x57));
    m_literal.setForeground(QColor(0x6a, 0x1b, 0x9a));
    m_literal.setFontWeight(QFont::DemiBold);
    m_punctuation.setForeground(QColor(0x75, 0x75, 0x75));
}

QTextCharFormat JsonHighlighter::format(Token token) const
{
    switch (token) {
    case Token::Key: return m_key;
    case Token::String: return m_string;
    case Token::Number: return m_number;
    case Token::Literal: return m_literal;
    case Token::Punctuation: return m_punctuation;
    }
    return {};
}

int JsonHighlighter::stringEnd(const QString& text, int start) const
{
    for (int i = start + 1; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('\\'))
            ++i;
        else if (text[i] == QLatin1Char('"'))
            return i + 1;
    }
    return static_cast<int>(text.size());
}

void JsonHighlighter::highlightBlock(const QString& text)
{
    int i = 0;
    const int n = static_cast<int>(text.size());
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('"')) {
            const int end = stringEnd(text, i);
            int next = end;
            while (next < n && text[next].isSpace())
                ++next;
            const bool key = next < n && text[next] == QLatin1Char(':');
            setFormat(i, end - i, key ? m_key : m_string);
            i = end;
        } else if (c.isDigit() || (c == QLatin1Char('-') && i + 1 < n && text[i + 1].isDigit())) {
            int end = i + 1;
            while (end < n && (text[end].isDigit() || QStringLiteral(".eE+-").contains(text[end])))
                ++end;
            setFormat(i, end - i, m_number);
            i = end;
        } else if (c.isLetter()) {
            int end = i;
            while (end < n && text[end].isLetter())
                ++end;
            const QStringView word = QStringView(text).mid(i, end - i);
            if (word == QLatin1String("true") || word == QLatin1String("false") || word == QLatin1String("null"))
                setFormat(i, end - i, m_literal);
            i = end;
        } else {
            if (QStringLiteral("{}[]:,").contains(c))
                setFormat(i, 1, m_punctuation);
            ++i;
        }
    }
}

}  // namespace attrib::views
