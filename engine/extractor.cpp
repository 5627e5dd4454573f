// SPDX-License-Identifier: GPL-3.0-or-later
// Each line's candidate rules from the literals they need (plus a small set of literal-free patterns), then each
// candidate's own pattern with its named captures.
#include "engine/extractor.h"
#include "engine/host_name.h"
#include "engine/lazy_regex.h"
#include "engine/line_prefilter.h"
#include "engine/number.h"

#include <re2/re2.h>
#include <re2/set.h>

#include "engine/json_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <tuple>

namespace attrib::engine {

namespace {

/// Options of the set of unguarded patterns (those with no literal a line must hold; a handful of table-row
/// shapes). They run on every line of the kinds they read; few patterns make small DFA states, so 8 MB is ample.
re2::RE2::Options setOptions()
{
    re2::RE2::Options options;
    options.set_max_mem(std::int64_t{8} << 20);
    return options;
}

using KindMask = std::uint32_t;
static_assert(SourceKindCount <= 32);

constexpr KindMask bit(SourceKind kind)
{
    return KindMask{1} << static_cast<unsigned>(kind);
}

}  // namespace

/// Which rules could match a line: a guarded rule is a candidate when the line holds one of its guards
/// (engine/line_prefilter.h); the unguarded rules are one small RE2::Set run on every line of the kinds they read.
/// Each candidate then runs its own pattern, which decides. One pattern set for every source kind: a line's
/// candidates are kept for the rules that read its kind.
struct ExtractorSet::Compiled {
    /// By index; from firstContext on, the rules whose context it is; from firstAfter on, whose `after` it is.
    std::vector<const ExtractorRule*> rules;
    std::uint32_t firstContext = 0;  ///< the first index of a context pattern
    std::uint32_t firstAfter = 0;    ///< the first index of an `after` pattern
    std::vector<KindMask> reads;     ///< by index: the kinds whose lines the rule reads
    KindMask anyRule = 0;            ///< kinds some rule reads
    LinePrefilter prefilter;         ///< guards, by rule index
    re2::RE2::Set unguarded{setOptions(), re2::RE2::UNANCHORED};
    std::vector<std::uint32_t> unguardedRules;  ///< by set index: the rule index
    KindMask unguardedReads = 0;                ///< kinds some unguarded rule reads
    bool compiled = true;
};

ExtractorSet::ExtractorSet(const std::vector<ExtractorRule>& rules)
    : m_compiled(std::make_unique<Compiled>())
{
    auto& c = *m_compiled;
    std::vector<std::string_view> patterns;
    for (const auto& rule : rules) {
        if (!rule.re)
            continue;
        // Plain text (SourceKind::Text) has no known format, so every extractor reads it, whatever its sources.
        KindMask reads = bit(SourceKind::Text);
        for (SourceKind kind : rule.sources)
            reads |= bit(kind);
        // A syslog or journal line of a program other than the kernel is that program's own output: a service, or
        // a job run under systemd, writes its stdout there. What reads application output reads it there too.
        if (reads & bit(SourceKind::App))
            reads |= bit(SourceKind::Syslog);
        c.rules.push_back(&rule);
        c.reads.push_back(reads);
        c.anyRule |= reads;
        patterns.push_back(rule.pattern);
    }
    // Context patterns ride the same prefilter, after the rules' own patterns: a line is matched against its own
    // candidates first, so the context a line needs comes from an earlier line, never from itself.
    c.firstContext = static_cast<std::uint32_t>(c.rules.size());
    for (std::uint32_t i = 0; i < c.firstContext; ++i) {
        const ExtractorRule& rule = *c.rules[i];
        if (!rule.context || !rule.context->re)
            continue;
        c.rules.push_back(&rule);
        c.reads.push_back(c.reads[i]);
        patterns.push_back(rule.context->pattern);
    }
    // Then the `after` patterns: a line's own matches and its context hits come first, so a line never decides its
    // own held match.
    c.firstAfter = static_cast<std::uint32_t>(c.rules.size());
    for (std::uint32_t i = 0; i < c.firstContext; ++i) {
        const ExtractorRule& rule = *c.rules[i];
        if (!rule.after || !rule.after->re)
            continue;
        c.rules.push_back(&rule);
        c.reads.push_back(c.reads[i]);
        patterns.push_back(rule.after->pattern);
    }
    const re2::RE2::Options options = c.rules.empty() ? re2::RE2::Options{} : c.rules.front()->re->options();
    c.prefilter = LinePrefilter(patterns, options);
    for (std::uint32_t i = 0; i < c.rules.size(); ++i) {
        if (c.prefilter.guarded(i))
            continue;
        std::string error;
        if (c.unguarded.Add(patterns[i], &error) >= 0) {
            c.unguardedRules.push_back(i);
            c.unguardedReads |= c.reads[i];
        }
    }
    c.compiled = c.unguardedRules.empty() || c.unguarded.Compile();
}

ExtractorSet::~ExtractorSet() = default;

bool ExtractorSet::compiled() const
{
    return m_compiled->compiled;
}

namespace {

/// Runs a pattern on a line and fills its named captures.
bool matchCaptures(const LazyRegex& pattern, std::string_view text, AttrMap& captures)
{
    const re2::RE2& re = pattern.regex();
    const int groups = re.NumberOfCapturingGroups();
    std::vector<re2::StringPiece> pieces(static_cast<std::size_t>(groups) + 1);
    if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED, pieces.data(),
                  groups + 1))
        return false;
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
        const auto& piece = pieces[static_cast<std::size_t>(index)];
        if (piece.data() != nullptr)  // groups are visited by name, so of two aliases the shorter name wins
            captures.emplace(captureField(name), std::string(piece.data(), piece.size()));
    }
    return true;
}

}  // namespace

bool matchContext(const ExtractorRule& rule, std::string_view text, AttrMap& captures)
{
    return rule.context && rule.context->re && matchCaptures(*rule.context->re, text, captures);
}

bool matchAfter(const ExtractorRule& rule, std::string_view text, AttrMap& captures)
{
    return rule.after && rule.after->re && matchCaptures(*rule.after->re, text, captures);
}

bool sameThing(const ExtractorRule& rule, const AttrMap& held, const AttrMap& later)
{
    return !rule.after || std::all_of(rule.after->same.begin(), rule.after->same.end(), [&](const std::string& name) {
        const auto mine = held.find(name);
        const auto theirs = later.find(name);
        return mine == held.end() || theirs == later.end() || mine->second == theirs->second;
    });
}

void ContextMemory::finish()
{
    for (auto& p : pending)
        if (p.match.rule->after->absent)
            resolved.push_back(std::move(p));
    pending.clear();
}

std::vector<ContextMemory::Pending> ContextMemory::takeResolved()
{
    std::vector<Pending> out;
    out.swap(resolved);
    std::stable_sort(out.begin(), out.end(), [](const Pending& a, const Pending& b) {
        return std::tie(a.tag, a.order) < std::tie(b.tag, b.order);
    });
    return out;
}

namespace {

/// The rule's `map`: each mapped capture's word replaced by its value (or the `*` default); false when a word has
/// neither, which makes the line not the rule's.
bool translateWords(const ExtractorRule& rule, AttrMap& captures)
{
    for (const auto& [capture, words] : rule.map) {
        const auto it = captures.find(capture);
        if (it == captures.end())
            continue;
        auto word = words.find(it->second);
        if (word == words.end())
            word = words.find("*");
        if (word == words.end())
            return false;
        it->second = word->second;
    }
    return true;
}

bool excluded(const ExtractorRule& rule, std::string_view text)
{
    return rule.exclude && re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), rule.exclude->regex());
}

}  // namespace

bool narrowsPattern(const ExtractorRule& rule)
{
    return !rule.require.empty() || !rule.map.empty() || rule.exclude != nullptr;
}

bool matchRule(const ExtractorRule& rule, std::string_view text, AttrMap& captures)
{
    if (!rule.re || !matchCaptures(*rule.re, text, captures))
        return false;
    if (!translateWords(rule, captures) || excluded(rule, text)) {
        captures.clear();
        return false;
    }
    // Numeric conditions: a capture (or a bound capture) that is absent or no number fails its condition, as a false
    // comparison does.
    const auto numberOf = [&](const std::string& capture) -> std::optional<double> {
        const auto it = captures.find(capture);
        return it == captures.end() ? std::nullopt : parseFinite(it->second);
    };
    for (const auto& condition : rule.require) {
        const auto value = numberOf(condition.capture);
        const auto bound =
            condition.boundCapture.empty() ? std::optional<double>(condition.value) : numberOf(condition.boundCapture);
        if (!value || !bound || !condition.holds(*value, *bound)) {
            captures.clear();
            return false;
        }
    }
    return true;
}

namespace {

/// The latest earlier line that matched the rule's context pattern, when it came at most `within` lines before.
const ContextMemory::Seen* recentContext(const ExtractorRule& rule, const ContextMemory* memory)
{
    if (!memory)
        return nullptr;
    const auto it = memory->seen.find(&rule);
    if (it == memory->seen.end() || it->second.line >= memory->line ||
        memory->line - it->second.line > rule.context->within)
        return nullptr;
    return &it->second;
}

/// Held matches whose window closed before this line: those waiting for an absent line hold, the others do not.
void expirePending(ContextMemory& memory)
{
    auto& pending = memory.pending;
    const auto closed = [&](const ContextMemory::Pending& p) {
        return p.line < memory.line && memory.line - p.line > p.match.rule->after->within;
    };
    for (auto& p : pending)
        if (closed(p) && p.match.rule->after->absent)
            memory.resolved.push_back(std::move(p));
    pending.erase(std::remove_if(pending.begin(), pending.end(), closed), pending.end());
}

/// This line matched the rule's `after` pattern: it decides the rule's matches held from earlier lines (kept with
/// the line's captures where the held line lacks them, or cancelled when the rule wants the line absent).
void decidePending(const ExtractorRule& rule, const AttrMap& captures, ContextMemory& memory)
{
    auto& pending = memory.pending;
    const auto decided = [&](const ContextMemory::Pending& p) {
        return p.match.rule == &rule && (p.line < memory.line || p.tag < memory.tag) &&
            sameThing(rule, p.match.captures, captures);
    };
    if (!rule.after->absent)
        for (auto& p : pending)
            if (decided(p)) {
                for (const auto& [key, value] : captures)
                    p.match.captures.emplace(key, value);
                memory.resolved.push_back(std::move(p));
            }
    pending.erase(std::remove_if(pending.begin(), pending.end(), decided), pending.end());
}

/// Holds a match until a later line decides it; over the per-rule bound the rule's oldest held match is dropped.
void holdPending(LineMatch match, std::uint32_t order, ContextMemory& memory)
{
    auto& pending = memory.pending;
    const auto ofRule = [&](const ContextMemory::Pending& p) { return p.match.rule == match.rule; };
    if (static_cast<std::size_t>(std::count_if(pending.begin(), pending.end(), ofRule)) >=
        ContextMemory::MaxPendingPerRule) {
        pending.erase(std::find_if(pending.begin(), pending.end(), ofRule));
        ++memory.dropped;
    }
    pending.push_back({std::move(match), memory.line, memory.tag, order});
}

}  // namespace

bool ExtractorSet::match(SourceKind kind, std::string_view text, std::vector<LineMatch>& out,
                         ContextMemory* memory) const
{
    const auto& c = *m_compiled;
    const KindMask want = bit(kind);
    if (memory && !memory->pending.empty())
        expirePending(*memory);
    if (!(c.anyRule & want))
        return false;
    thread_local std::vector<std::uint32_t> candidates;
    candidates.clear();
    c.prefilter.candidates(text, candidates);
    if ((c.unguardedReads & want) && !c.unguardedRules.empty() && c.compiled) {
        const re2::StringPiece piece(text.data(), text.size());
        re2::RE2::Set::ErrorInfo info{};
        thread_local std::vector<int> hits;
        hits.clear();
        // Asking only whether one matches spares the match set RE2 allocates when asked which (most lines: none).
        const bool hit = c.unguarded.Match(piece, nullptr, &info) && c.unguarded.Match(piece, &hits, &info);
        const std::size_t guarded = candidates.size();
        if (info.kind == re2::RE2::Set::kOutOfMemory) {  // the DFA ran out of its budget: each rule decides alone
            candidates.insert(candidates.end(), c.unguardedRules.begin(), c.unguardedRules.end());
        } else if (hit) {
            for (int index : hits)
                candidates.push_back(c.unguardedRules[static_cast<std::size_t>(index)]);
        }
        if (candidates.size() != guarded) {  // most lines: no unguarded hit, the prefilter's list is already sorted
            std::sort(candidates.begin(), candidates.end());
            candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        }
    }
    bool any = false;
    for (std::uint32_t index : candidates) {
        if (!(c.reads[index] & want))  // a rule for other kinds of lines
            continue;
        const ExtractorRule& rule = *c.rules[index];
        if (index >= c.firstAfter) {  // after the line's own matches and context hits
            AttrMap captures;
            if (memory && !memory->pending.empty() && matchAfter(rule, text, captures))
                decidePending(rule, captures, *memory);
            continue;
        }
        if (index >= c.firstContext) {  // the sorted candidates put these last: this line's own matches came first
            AttrMap captures;
            if (memory && matchContext(rule, text, captures))
                memory->seen[&rule] = {memory->line, std::move(captures)};
            continue;
        }
        const ContextMemory::Seen* context = rule.context ? recentContext(rule, memory) : nullptr;
        if (rule.context && rule.context->required && !context)
            continue;
        LineMatch m;
        m.rule = &rule;
        if (!matchRule(rule, text, m.captures))
            continue;
        if (context)  // the context line fills what the rule's own line lacks
            for (const auto& [key, value] : context->captures)
                m.captures.emplace(key, value);
        if (rule.after && memory) {  // a later line decides
            holdPending(std::move(m), index, *memory);
            continue;
        }
        if (rule.after && !rule.after->absent)  // no later line to come
            continue;
        out.push_back(std::move(m));
        any = true;
    }
    return any;
}

std::vector<std::string> ExtractorSet::rulesFor(SourceKind kind) const
{
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < m_compiled->firstContext; ++i)
        if (m_compiled->reads[i] & bit(kind))
            ids.push_back(m_compiled->rules[i]->id);
    return ids;
}

namespace {

/// A captured GPU or rank index; a captured value that is not one becomes a note and `fallback` is used.
int indexField(Event& e, const char* key, int fallback)
{
    auto it = e.attrs.find(key);
    if (it == e.attrs.end() || it->second.empty())
        return fallback;
    if (const auto index = parseIntegerIn<int>(it->second, 0, INT32_MAX))
        return *index;
    noteUnreadable(e.attrs, std::string(key) + " '" + it->second.substr(0, 40) + "' is not an index");
    return fallback;
}

}  // namespace

namespace {

bool sameWord(std::string_view a, std::string_view b)
{
    return a.size() == b.size() &&
        std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

/// Words for a placeholder without a value. "GPU {gpu}" (the placeholder named by the word before it) becomes
/// "the GPU" rather than "GPU unknown", so "reseat GPU {gpu}" and "rank {rank}'s traceback" still read.
void appendUnknown(std::string& out, const std::string& key)
{
    const auto space = out.size() > 0 && out.back() == ' ' ? out.size() - 1 : std::string::npos;
    std::size_t start = space;
    while (start != std::string::npos && start > 0 && std::isalpha(static_cast<unsigned char>(out[start - 1])))
        --start;
    const bool named = space != std::string::npos && start < space &&
        sameWord(std::string_view(out).substr(start, space - start), key);
    if (key == "node") {
        if (named)
            out.resize(start);
        out += "an unknown node";
    } else if (named) {
        out.insert(start, "the ");
        out.resize(space + 4);  // drop the space that was before the placeholder
    } else {
        out += "unknown";
    }
}

/// True when every `{name}` placeholder in `text` has a non-empty value.
bool allFilled(std::string_view text, const AttrMap& values)
{
    for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
        const auto close = text.find('}', open);
        if (close == std::string_view::npos)
            break;
        const auto it = values.find(std::string(text.substr(open + 1, close - open - 1)));
        if (it == values.end() || it->second.empty())
            return false;
    }
    return true;
}

/// Resolves `[[optional]]` segments: kept without the brackets when all their placeholders have values, else
/// dropped whole (so "the traceback[[ of rank {rank}]]" reads well whether the rank is known or not).
std::string resolveOptional(const std::string& tpl, const AttrMap& values)
{
    std::string out;
    std::size_t at = 0;
    for (std::size_t open = tpl.find("[["); open != std::string::npos; open = tpl.find("[[", at)) {
        const auto close = tpl.find("]]", open + 2);
        if (close == std::string::npos)
            break;
        out.append(tpl, at, open - at);
        const std::string_view inner = std::string_view(tpl).substr(open + 2, close - open - 2);
        if (allFilled(inner, values))
            out += inner;
        at = close + 2;
    }
    out.append(tpl, at, std::string::npos);
    return out;
}

}  // namespace

std::string expandProse(const std::string& raw, const AttrMap& values, bool* missing)
{
    const std::string tpl = resolveOptional(raw, values);
    std::string out;
    out.reserve(tpl.size());
    for (std::size_t i = 0; i < tpl.size(); ++i) {
        const auto close = tpl[i] == '{' ? tpl.find('}', i) : std::string::npos;
        if (close == std::string::npos) {
            out += tpl[i];
            continue;
        }
        const std::string key = tpl.substr(i + 1, close - i - 1);
        const auto it = values.find(key);
        if (it != values.end() && !it->second.empty()) {
            out += it->second;
        } else {
            appendUnknown(out, key);
            if (missing)
                *missing = true;
        }
        i = close;
    }
    return out;
}

std::string expandTemplate(const std::string& tpl, const AttrMap& values)
{
    std::string out;
    out.reserve(tpl.size());
    for (std::size_t i = 0; i < tpl.size(); ++i) {
        if (tpl[i] == '{') {
            const auto close = tpl.find('}', i);
            if (close != std::string::npos) {
                const auto it = values.find(tpl.substr(i + 1, close - i - 1));
                out += it != values.end() && !it->second.empty() ? it->second : "?";
                i = close;
                continue;
            }
        }
        out += tpl[i];
    }
    return out;
}

std::string setValue(const std::string& value, const AttrMap& captures)
{
    if (value.find('{') == std::string::npos)
        return value;
    // A placeholder the line left empty (an optional group, a value a poster redacted) leaves the whole value empty:
    // the prose then says the value is unknown, never `GPU ?`.
    return allFilled(value, captures) ? expandTemplate(value, captures) : std::string();
}

Event makeEvent(const LineMatch& match, const Observation& obs)
{
    const ExtractorRule& rule = *match.rule;
    Event e;
    e.type = rule.event;
    e.rule = rule.id;
    // At its final size: a `set` field added to a full vector would double it (an event's largest heap block).
    e.attrs.reserve(match.captures.size() + rule.set.size() + (rule.jobWide ? 1 : 0));
    e.attrs = match.captures;
    for (const auto& [k, v] : rule.set)  // a capture of the same name wins; `{capture}` reads the line's own
        e.attrs.emplace(k, setValue(v, match.captures));
    auto take = [&](const char* key) -> std::string {
        auto it = e.attrs.find(key);
        return it == e.attrs.end() ? std::string() : it->second;
    };
    e.node = obs.node;
    if (auto node = e.attrs.find("node"); node != e.attrs.end() && !node->second.empty()) {
        e.node = shortHost(node->second);
    }
    e.gpu = indexField(e, "gpu", obs.gpu);
    e.rank = indexField(e, "rank", obs.rank);
    // The line's launcher prefix (`srun -l` task, `[rank3]:`) beside a rank the line itself names: which process
    // printed the claim, when that is not the rank it claims.
    if (obs.rank >= 0 && !take("rank").empty())
        e.attrs["line_rank"] = std::to_string(obs.rank);
    if (rule.jobWide)  // a job-wide fact (time limit, job cancel)
        makeJobWide(e);
    e.link = take("link");
    e.time = obs.time;
    e.timeSource = obs.timeSource;
    if (!rule.timeFrom.empty()) {
        if (auto t = e.attrs.find(rule.timeFrom); t != e.attrs.end()) {
            if (const TimeNs parsed = parseIsoTime(t->second); parsed != NoTime) {
                e.time = parsed;
                e.timeSource = TimeSource::Absolute;
            }
        }
    }
    e.sympathetic = rule.sympathetic;
    e.observations.push_back(obs.id);
    if (!rule.symptom.empty()) {
        auto values = e.attrs;
        values["node"] = e.node;
        e.symptom = expandTemplate(rule.symptom, values);
    }
    return e;
}

}  // namespace attrib::engine
