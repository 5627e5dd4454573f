// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/evidence/evidence_source.h"

namespace attrib::views {

LineMatcher::LineMatcher(LineQuery query)
    : m_query(std::move(query))
{
    if (m_query.regex) {
        QRegularExpression::PatternOptions options = QRegularExpression::UseUnicodePropertiesOption;
        if (m_query.cs == Qt::CaseInsensitive)
            options |= QRegularExpression::CaseInsensitiveOption;
        m_re = QRegularExpression(m_query.text, options);
        m_re.optimize();
    }
}

bool LineMatcher::hits(const QString& line) const
{
    if (m_query.text.isEmpty())
        return true;
    if (!m_query.regex)
        return line.contains(m_query.text, m_query.cs);
    return m_re.isValid() && m_re.match(line).hasMatch();
}

bool LineMatcher::accepts(const QString& line) const
{
    if (m_query.text.isEmpty())
        return true;
    if (!isValid())
        return false;
    return hits(line) != m_query.invert;
}

QList<QPair<int, int>> LineMatcher::matches(const QString& line) const
{
    QList<QPair<int, int>> out;
    if (m_query.text.isEmpty() || !isValid())
        return out;
    if (!m_query.regex) {
        const qsizetype n = m_query.text.size();
        for (qsizetype at = line.indexOf(m_query.text, 0, m_query.cs); at >= 0;
             at = line.indexOf(m_query.text, at + n, m_query.cs))
            out.append({static_cast<int>(at), static_cast<int>(n)});
        return out;
    }
    for (auto it = m_re.globalMatch(line); it.hasNext();) {
        const auto m = it.next();
        if (m.capturedLength() > 0)
            out.append({static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength())});
    }
    return out;
}

}  // namespace attrib::views
