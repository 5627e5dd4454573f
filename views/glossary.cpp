// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/glossary.h"

namespace attrib::views {

QString glossary(Term term)
{
    switch (term) {
    case Term::Demoted:
        return QStringLiteral("Demoted: a real symptom that another, stronger symptom explains (for example NCCL "
                              "timeouts after a GPU fell off the bus). It is kept, with the rule and reason, but it "
                              "is not the root cause.");
    case Term::Scrubbed:
        return QStringLiteral("Scrubbed: removed while cleaning up one node's symptoms, because it repeats or is "
                              "superseded by another symptom on the same node, or is a sympathetic follow-up.");
    case Term::Interesting:
        return QStringLiteral("Interesting: evidence of a demoted symptom kept visible because it helps to "
                              "understand the cascade.");
    case Term::Inherited:
        return QStringLiteral("Inherited time: the line carries no timestamp of its own and takes the time of the "
                              "last stamped line before it. The real time is at or after the one shown (a lower "
                              "bound), and before the next stamped line.");
    case Term::YearInferred:
        return QStringLiteral("Year-inferred time: the line's timestamp has no year (classic syslog); the year was "
                              "taken from the rest of the evidence.");
    case Term::BootRelative:
        return QStringLiteral("Boot-relative time: the line counts seconds since the machine booted (raw dmesg) and "
                              "the bundle holds no boot time for its node, so it cannot be placed on the wall clock. "
                              "Lines whose boot time is known are converted and read as stamped.");
    case Term::ClockCorrected:
        return QStringLiteral("Clock-corrected: this node's clock disagreed with the others; the analysis shifted "
                              "its times by the estimated offset. The raw line still shows the node's own time.");
    case Term::Coverage:
        return QStringLiteral("Coverage: which files each collector read, for which nodes and time span, and which "
                              "files were skipped or missing. A verdict is only as good as its coverage.");
    }
    return {};
}

QString timeSourceText(engine::TimeSource source)
{
    switch (source) {
    case engine::TimeSource::Absolute: return QStringLiteral("stamped");
    case engine::TimeSource::YearInferred: return QStringLiteral("year inferred");
    case engine::TimeSource::BootRelative: return QStringLiteral("seconds since boot; boot time unknown");
    case engine::TimeSource::Inherited: return QStringLiteral("inherited from an earlier line: at or after");
    case engine::TimeSource::None: return QStringLiteral("time unknown");
    }
    return {};
}

QString timeSourceGlossary(engine::TimeSource source)
{
    switch (source) {
    case engine::TimeSource::YearInferred: return glossary(Term::YearInferred);
    case engine::TimeSource::BootRelative: return glossary(Term::BootRelative);
    case engine::TimeSource::Inherited: return glossary(Term::Inherited);
    case engine::TimeSource::Absolute:
    case engine::TimeSource::None: return {};
    }
    return {};
}

}  // namespace attrib::views
