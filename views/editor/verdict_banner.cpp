// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/editor/verdict_banner.h"

#include "views/presentation.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace attrib::views {

VerdictBanner::VerdictBanner(QWidget* parent)
    : QFrame(parent)
    , m_headline(new QLabel(this))
    , m_details(new QPlainTextEdit(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_details->setReadOnly(true);
    m_details->setFrameShape(QFrame::NoFrame);
    m_details->setMaximumHeight(fontMetrics().lineSpacing() * 6 + 8);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_headline, 1);
    top->addWidget(close, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(top);
    layout->addWidget(m_details);
    connect(close, &QToolButton::clicked, this, &VerdictBanner::dismiss);
    hide();
}

void VerdictBanner::setColors(const QColor& background, const QColor& border)
{
    setStyleSheet(QStringLiteral("attrib--views--VerdictBanner { background: %1; border: 1px solid %2; }")
                      .arg(background.name(), border.name()));
    QPalette p = m_details->palette();
    p.setColor(QPalette::Base, background);
    m_details->setPalette(p);
}

void VerdictBanner::showDiff(const engine::VerdictDiff& diff, const QString& catalogLine)
{
    m_kind = diff.empty() ? Kind::Unchanged : Kind::Changed;
    const QString headline = diff.empty() ? tr("Rules reloaded; verdict unchanged: %1").arg(qs(diff.headline()))
                                          : tr("Rules reloaded; verdict changed: %1").arg(qs(diff.headline()));
    m_headline->setText(headline);
    QStringList lines;
    if (diff.terminalChanged())
        lines << tr("terminal state: %1 \u2192 %2").arg(qs(diff.terminalBefore), qs(diff.terminalAfter));
    if (diff.subDomainChanged())
        lines << tr("sub-domain: %1 \u2192 %2").arg(qs(diff.subDomainBefore), qs(diff.subDomainAfter));
    if (diff.rootCauseChanged())
        lines << tr("root cause: %1 \u2192 %2")
                     .arg(diff.rootCauseBefore.empty() ? tr("none") : qs(diff.rootCauseBefore),
                          diff.rootCauseAfter.empty() ? tr("none") : qs(diff.rootCauseAfter));
    for (const auto& s : diff.symptoms)
        lines << qs(s.id + ": " + s.describe());
    lines << catalogLine;
    m_details->setPlainText(lines.join(QLatin1Char('\n')));
    if (diff.empty())
        setColors(QColor(0xe8, 0xf5, 0xe9), QColor(0x81, 0xc7, 0x84));
    else
        setColors(QColor(0xff, 0xf8, 0xe1), QColor(0xff, 0xb3, 0x00));
    show();
}

void VerdictBanner::showRejected(const std::vector<engine::Diagnostic>& problems)
{
    m_kind = Kind::Rejected;
    const QString first = problems.empty() ? QString() : qs(problems.front().str());
    m_headline->setText(tr("Edit not used: %1. The last good catalog stays active.").arg(first));
    QStringList lines;
    for (const auto& d : problems)
        lines << qs(d.str());
    m_details->setPlainText(lines.join(QLatin1Char('\n')));
    setColors(QColor(0xff, 0xeb, 0xee), QColor(0xe5, 0x73, 0x73));
    show();
}

void VerdictBanner::dismiss()
{
    m_kind = Kind::Hidden;
    hide();
    Q_EMIT dismissed();
}

QString VerdictBanner::headline() const
{
    return m_headline->text();
}

QString VerdictBanner::text() const
{
    return m_headline->text() + QLatin1Char('\n') + m_details->toPlainText();
}

}  // namespace attrib::views
