// SPDX-License-Identifier: GPL-3.0-or-later
#include "pasted_lines.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <map>
#include <string>
#include <utility>

namespace attrib::importers::detail {

namespace {

constexpr std::size_t MinJoinedPaste = 160;
constexpr std::size_t MinCuts = 2;
/// A prefix form starts records only when it starts three: a message may quote one stamp (`saved at 2024-...`).
constexpr std::size_t MinPrefixRecords = 3;
constexpr std::size_t MaxFramePath = 600;

/// The forms of line prefix a record of a log starts with; a form starting three records of one line marks its cuts.
enum class Start : char { None = '0', Iso, Syslog, Dmesg, Rank, Glog, Nccl };

struct Form {
    Start kind = Start::None;
    std::size_t length = 0;  ///< bytes of the prefix form itself
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}

std::size_t digitRun(std::string_view s, std::size_t i)
{
    std::size_t k = i;
    while (k < s.size() && isDigit(s[k]))
        ++k;
    return k - i;
}

bool digitsAt(std::string_view s, std::size_t i, std::size_t n)
{
    return i + n <= s.size() && digitRun(s, i) >= n;
}

/// `hh:mm:ss` at `i`.
bool clockAt(std::string_view s, std::size_t i)
{
    return digitsAt(s, i, 2) && i + 8 <= s.size() && s[i + 2] == ':' && digitsAt(s, i + 3, 2) && s[i + 5] == ':' &&
        digitsAt(s, i + 6, 2);
}

/// An ISO date and time to the minute, bare or in brackets (Python logging, DeepSpeed, vLLM).
Form isoAt(std::string_view t)
{
    const std::size_t b = !t.empty() && t[0] == '[' ? 1 : 0;
    const bool iso = digitsAt(t, b, 4) && t.size() > b + 16 && t[b + 4] == '-' && digitsAt(t, b + 5, 2) &&
        t[b + 7] == '-' && digitsAt(t, b + 8, 2) && (t[b + 10] == 'T' || t[b + 10] == ' ') && digitsAt(t, b + 11, 2) &&
        t[b + 13] == ':' && digitsAt(t, b + 14, 2);
    return iso ? Form{Start::Iso, b + 16} : Form{};
}

/// A syslog stamp without year: `May  1 10:00:01`.
Form syslogAt(std::string_view t)
{
    static constexpr std::array<std::string_view, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (t.size() < 15 || t[3] != ' ' || std::find(months.begin(), months.end(), t.substr(0, 3)) == months.end())
        return {};
    const std::size_t k = t[4] == ' ' ? 5 : 4;
    const std::size_t day = digitRun(t, k);
    const bool stamp = day >= 1 && day <= 2 && k + day < t.size() && t[k + day] == ' ' && clockAt(t, k + day + 1);
    return stamp ? Form{Start::Syslog, k + day + 9} : Form{};
}

/// The kernel's `[  123.456789]`.
Form dmesgAt(std::string_view t)
{
    if (t.empty() || t[0] != '[')
        return {};
    const std::size_t k = std::min(t.find_first_not_of(' ', 1), t.size());
    const std::size_t seconds = digitRun(t, k);
    const std::size_t dot = k + seconds;
    const bool stamp = seconds > 0 && dot < t.size() && t[dot] == '.' && digitsAt(t, dot + 1, 6) &&
        dot + 7 < t.size() && t[dot + 7] == ']';
    return stamp ? Form{Start::Dmesg, dot + 8} : Form{};
}

/// torchrun's `[rank3]:`.
Form rankAt(std::string_view t)
{
    if (t.substr(0, 5) != "[rank")
        return {};
    const std::size_t n = digitRun(t, 5);
    return n > 0 && t.substr(5 + n, 2) == "]:" ? Form{Start::Rank, 7 + n} : Form{};
}

/// glog's `E0101 12:00:00`.
Form glogAt(std::string_view t)
{
    const bool level = !t.empty() && (t[0] == 'I' || t[0] == 'W' || t[0] == 'E' || t[0] == 'F');
    return level && t.size() >= 14 && digitsAt(t, 1, 4) && t[5] == ' ' && clockAt(t, 6) ? Form{Start::Glog, 14}
                                                                                        : Form{};
}

/// NCCL's `host:pid:tid [dev] NCCL `.
Form ncclAt(std::string_view t)
{
    const std::size_t token = std::min(t.find(' '), t.size());
    const std::string_view name = t.substr(0, token);
    const std::size_t second = name.rfind(':');
    if (second == std::string_view::npos || second < 2 || second + 1 == name.size() ||
        digitRun(name, second + 1) != name.size() - second - 1)
        return {};
    const std::size_t first = name.rfind(':', second - 1);
    if (first == std::string_view::npos || first == 0 || first + 1 == second ||
        digitRun(name, first + 1) != second - first - 1)
        return {};
    const std::string_view rest = t.substr(std::min(token + 1, t.size()));
    const std::size_t dev = !rest.empty() && rest[0] == '[' ? digitRun(rest, 1) : 0;
    return dev > 0 && rest.substr(1 + dev, 7) == "] NCCL " ? Form{Start::Nccl, token + dev + 8} : Form{};
}

Form formAt(std::string_view t)
{
    for (const auto reader : {isoAt, syslogAt, dmesgAt, rankAt, glogAt, ncclAt})
        if (const Form form = reader(t); form.kind != Start::None)
            return form;
    return {};
}

constexpr std::string_view TracebackHeader = "Traceback (most recent call last):";
constexpr std::array<std::string_view, 2> ChainingSentences = {
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:"};

/// Length of a traceback frame's head at the start of `t` (`File "x.py", line 9, in main`); 0 when none.
std::size_t frameAt(std::string_view t)
{
    if (t.substr(0, 6) != "File \"")
        return 0;
    const std::size_t close = t.find("\", line ", 6);
    if (close == std::string_view::npos || close > MaxFramePath)
        return 0;
    const std::size_t number = close + 8;
    const std::size_t digits = digitRun(t, number);
    if (digits == 0 || t.substr(number + digits, 5) != ", in ")
        return 0;
    const std::size_t name = number + digits + 5;
    const std::size_t end = std::min(t.find_first_of(" \t", name), t.size());
    return end > name ? end : 0;
}

/// Whether `t` starts with an exception's name followed by `:` or the end (`RuntimeError: ...`,
/// `torch.OutOfMemoryError: ...`, `KeyboardInterrupt`).
bool exceptionAt(std::string_view t)
{
    static constexpr std::array<std::string_view, 6> endings = {"Error",     "Exception", "Exit",
                                                                "Interrupt", "Warning",   "Fault"};
    if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_'))
        return false;
    std::size_t k = 0;
    while (k < t.size() && (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_' || t[k] == '.'))
        ++k;
    const std::string_view name = t.substr(0, k);
    const bool named = std::any_of(endings.begin(), endings.end(), [&](std::string_view e) {
        return name.size() > e.size() && name.substr(name.size() - e.size()) == e;
    });
    return named && (k == t.size() || t[k] == ':');
}

std::string_view trimmed(std::string_view s)
{
    const std::size_t a = s.find_first_not_of(" \t");
    if (a == std::string_view::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

/// A piece that would be only a line prefix: a form with no word after it (`[rank3]:`, a stamp, `2024-...  ERROR`)
/// or Slurm's task label (`0:`).
bool barePrefix(std::string_view piece)
{
    const std::string_view t = trimmed(piece);
    if (t.empty() || (t.size() <= 6 && t.back() == ':' && digitRun(t, 0) == t.size() - 1))
        return true;
    const Form form = formAt(t);
    if (form.kind == Start::None)
        return false;
    std::size_t run = 0;
    for (std::size_t i = form.length; i < t.size(); ++i)
        if ((run = isLower(t[i]) ? run + 1 : 0) == 3)
            return false;
    return true;
}

/// A prefix form's kind and shape: the form and the stamp characters after it (fraction, zone, closing bracket),
/// each run of digits as one `9` (`2024-05-01T10:00:00.123Z` and `2024-05-01T10:00:01.456Z` share a shape; a table's
/// `2025-08-08 07:16:54` column or a `Time: 2025-08-08 07:16:54,` field does not share the line's own stamp's).
std::string shapeOf(std::string_view t, const Form& form)
{
    std::size_t end = form.length;
    while (end < t.size() && (isDigit(t[end]) || std::string_view(":.,+-Z]").find(t[end]) != std::string_view::npos))
        ++end;
    std::string shape(1, static_cast<char>(form.kind));
    for (std::size_t i = 0; i < end; ++i)
        if (isBlank(t[i]))
            continue;  // dmesg pads its seconds
        else if (!isDigit(t[i]))
            shape.push_back(t[i]);
        else if (i == 0 || !isDigit(t[i - 1]))
            shape.push_back('9');
    return shape;
}

/// A place to cut: where a record starts, or where a traceback's header or frame head ends (`secondary`: a line
/// holding only such a cut and one record start is one line, e.g. Ray's `... Traceback (most recent call last):
/// [repeated 49x across cluster]`).
struct Cut {
    std::size_t at = 0;
    bool secondary = false;
    bool operator<(const Cut& o) const { return at < o.at; }
};

/// The places a record starts in `line`, in no order.
std::vector<Cut> recordStarts(std::string_view line, std::size_t first)
{
    std::vector<Cut> cuts;
    std::vector<std::pair<std::size_t, std::string>> prefixes;  // where, and the form's kind and shape
    std::map<std::string, std::size_t> shapes;
    bool traceback = false;
    for (std::size_t i = first; i < line.size(); ++i) {
        if ((i > first && !isBlank(line[i - 1])) || isBlank(line[i]))
            continue;
        const std::string_view t = line.substr(i);
        if (const Form form = formAt(t); form.kind != Start::None) {
            std::string shape = shapeOf(line.substr(i), form);
            ++shapes[shape];
            prefixes.emplace_back(i, std::move(shape));
            i += form.length - 1;
            continue;
        }
        std::size_t sentence = t.substr(0, TracebackHeader.size()) == TracebackHeader ? TracebackHeader.size() : 0;
        for (const std::string_view chaining : ChainingSentences)
            if (t.substr(0, chaining.size()) == chaining)
                sentence = chaining.size();
        const std::size_t frame = sentence == 0 ? frameAt(t) : 0;
        if (sentence > 0 || frame > 0) {
            const std::size_t length = sentence + frame;
            cuts.push_back({i});
            cuts.push_back({i + length, true});
            traceback = true;
            i += length - 1;
        } else if (traceback && exceptionAt(t)) {
            cuts.push_back({i});
            traceback = false;
        }
    }
    // An ISO stamp is also a table's column or a message's value (`sinfo -R`, `log-util`, `saved at 2024-...`): it
    // starts records only in a paste that starts with it.
    const std::string_view lead = prefixes.empty() || prefixes.front().first != first ? "" : prefixes.front().second;
    for (const auto& [at, shape] : prefixes)
        if (shapes[shape] >= MinPrefixRecords && (shape[0] != static_cast<char>(Start::Iso) || shape == lead))
            cuts.push_back({at});
    // A shell's `Killed` after the output of the process it reports.
    if (const std::string_view t = trimmed(line);
        t.size() > 7 && t.substr(t.size() - 6) == "Killed" && isBlank(t[t.size() - 7]))
        cuts.push_back({static_cast<std::size_t>(t.data() - line.data()) + t.size() - 6});
    return cuts;
}

}  // namespace

bool splitJoinedPaste(std::string_view line, std::vector<std::string_view>& pieces)
{
    if (line.size() < MinJoinedPaste)
        return false;
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '{' || line.find("\\n") != std::string_view::npos)
        return false;
    std::vector<Cut> cuts = recordStarts(line, first);
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::string_view> out;
    std::size_t from = 0;
    std::size_t starts = 0;
    for (const Cut& cut : cuts) {
        if (cut.at == first && !cut.secondary && starts == 0) {  // the line itself starts with a record
            ++starts;
            continue;
        }
        if (cut.at <= from || cut.at >= line.size())
            continue;
        if (trimmed(line.substr(from, cut.at - from)).empty()) {  // only the blanks a join put between two lines
            from = cut.at;
            continue;
        }
        if (barePrefix(line.substr(from, cut.at - from)))
            continue;
        const std::string_view piece = line.substr(from, cut.at - from);
        out.push_back(piece.substr(0, piece.find_last_not_of(" \t") + 1));
        from = cut.at;
        starts += cut.secondary ? 0 : 1;
    }
    if (starts < MinCuts || trimmed(line.substr(from)).empty())
        return false;
    out.push_back(line.substr(from));
    pieces.insert(pieces.end(), out.begin(), out.end());
    return true;
}

}  // namespace attrib::importers::detail
