// SPDX-License-Identifier: GPL-3.0-or-later
// Log records that wrap a message: which members hold the message, its time and its host, by the shapes the
// runtimes and platforms write (Docker json-file and CRI JSON, CloudWatch get/filter-log-events, Cloud Logging
// `gcloud logging read --format=json`, Datadog and Kibana `_source` exports, Loki `--output=jsonl`, python-json-logger,
// zap/klog JSON, torchelastic's error file, fluent-bit's stdout output).
#include "importers/log_envelope.h"

#include "importers/format_prefix.h"
#include "importers/pasted_text.h"
#include "importers/timestamps.h"

#include "engine/number.h"
#include "engine/safe_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace attrib::importers::detail {

namespace {

using json = nlohmann::ordered_json;

/// Members that hold the message itself, most specific first (Loki's jsonl `line` only as a member of an object).
constexpr std::array<std::string_view, 8> MessageKeys = {"log",     "message",  "msg",        "textPayload",
                                                         "MESSAGE", "@message", "LogMessage", "line"};
/// Members that hold more of the message: an error's text, a formatted exception, a stack.
constexpr std::array<std::string_view, 7> DetailKeys = {"err",   "error",     "exc_info",   "exception",
                                                        "stack", "traceback", "stack_trace"};
/// Objects that wrap the record's own members (Cloud Logging, Kibana, Datadog, Loki's jsonl).
constexpr std::array<std::string_view, 4> NestedKeys = {"jsonPayload", "_source", "attributes", "fields"};
constexpr std::array<std::string_view, 9> TimeKeys = {"time",      "timestamp", "@timestamp", "ts",  "receiveTimestamp",
                                                      "eventTime", "date",      "asctime",    "Date"};
constexpr std::array<std::string_view, 7> HostKeys = {"host",      "hostname", "_HOSTNAME", "node",
                                                      "node_name", "nodeName", "Computer"};

/// Deeper nesting than a log record ever has is refused before parsing (a hostile line must not exhaust the stack).
constexpr int MaxDepth = 32;
/// Lines one record may hold (a traceback of a few hundred frames is the largest real message).
constexpr std::size_t MaxLines = 2000;

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool shallow(std::string_view s)
{
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == '{' || c == '[') {
            if (++depth > MaxDepth)
                return false;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return true;
}

const json* member(const json& object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

}  // namespace

engine::TimeNs unixTime(double value)
{
    if (!(value >= 1e9 && value < 1e19))
        return engine::NoTime;
    double ns = value;
    if (value < 1e10)
        ns = value * 1e9;
    else if (value < 1e13)
        ns = value * 1e6;
    else if (value < 1e16)
        ns = value * 1e3;
    return static_cast<engine::TimeNs>(std::llround(ns));
}

void appendMessageLines(std::string_view text, Envelope& out)
{
    std::string uncoloured;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
    for (std::size_t pos = 0; pos <= text.size() && out.lines.size() < MaxLines;) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        line = engine::stripTerminalCodes(line, uncoloured);
        if (!splitEscapedLines(line, out.lines))  // a string escaped twice: its breaks are still `\n`
            out.lines.emplace_back(line);
        pos = end + 1;
    }
}

namespace {

engine::TimeNs timeOf(const json& value)
{
    if (value.is_number())
        return unixTime(value.get<double>());
    if (!value.is_string())
        return engine::NoTime;
    const std::string& text = value.get_ref<const std::string&>();
    if (const auto stamp = parseIso8601(text))
        return stamp->time;
    if (const auto number = engine::parseFinite(text))
        return unixTime(*number);
    return engine::NoTime;
}

std::string hostOf(const json& value)
{
    if (value.is_object()) {
        for (const char* key : {"name", "hostname"})
            if (const json* inner = member(value, key))
                return hostOf(*inner);
        return {};
    }
    if (!value.is_string())
        return {};
    const std::string& text = value.get_ref<const std::string&>();
    return text.size() <= 253 && isHostName(text) ? text : std::string();
}

/// Where a record keeps its message: the member read, and the member that goes with it (the whole `message` object
/// of torchelastic's error file, whose own `message` repeats the stack's last line).
struct Found {
    json::json_pointer take;
    json::json_pointer drop;
};

bool findMessage(const json& object, const json::json_pointer& at, Found& found, int depth = 0)
{
    for (const auto key : MessageKeys) {
        const json* value = member(object, key);
        if (value == nullptr)
            continue;
        const json::json_pointer here = at / std::string(key);
        if (value->is_string()) {
            found = {here, here};
            return true;
        }
        // torchelastic's error file: `{"message": {"message": "RuntimeError: ...", "extraInfo": {"py_callstack":
        // "Traceback ...", "timestamp": "1700000000"}}}`; the stack ends in the exception line.
        if (const json* extra = member(*value, "extraInfo"))
            if (const json* stack = member(*extra, "py_callstack"); stack != nullptr && stack->is_string()) {
                found = {here / "extraInfo" / "py_callstack", here};
                return true;
            }
        if (depth < 2 && findMessage(*value, here, found, depth + 1))
            return true;
    }
    if (depth < 2)
        for (const auto key : NestedKeys)
            if (const json* nested = member(object, key))
                if (findMessage(*nested, at / std::string(key), found, depth + 1))
                    return true;
    return false;
}

/// Members that only describe the record (when, where, which stream, how severe): no evidence of their own.
bool isMetadataKey(const std::string& key)
{
    static constexpr std::array<std::string_view, 16> keys = {
        "stream",  "level",  "severity", "levelname", "logger",     "ingestionTime", "eventId",      "insertId",
        "logName", "caller", "source",   "thread",    "threadName", "logStreamName", "logGroupName", "_p"};
    for (const auto k : keys)
        if (k == key)
            return true;
    for (const auto k : TimeKeys)
        if (k == key)
            return true;
    for (const auto k : HostKeys)
        if (k == key)
            return true;
    return false;
}

/// Whether the rest of a record holds text that is evidence (a string outside the metadata members).
bool holdsText(const json& value, int depth = 0)
{
    if (value.is_string())
        return !value.get_ref<const std::string&>().empty();
    if (depth > 8)
        return false;
    if (value.is_array()) {
        for (const auto& element : value)
            if (holdsText(element, depth + 1))
                return true;
        return false;
    }
    if (value.is_object())
        for (const auto& [key, element] : value.items())
            if (!isMetadataKey(key) && holdsText(element, depth + 1))
                return true;
    return false;
}

/// The record's message and its details (an error's text, a formatted exception) as one text, and what is left of
/// the record besides them as one more line when it holds text of its own (an event's description, a request's
/// fields): nothing the record said is lost.
bool takeMessage(json& object, std::string& text)
{
    Found found;
    if (!findMessage(object, json::json_pointer(), found))
        return false;
    const std::string message = object[found.take].get<std::string>();
    if (message.find_first_not_of(" \t\r\n") == std::string::npos)
        return false;
    text = message;
    object[found.drop.parent_pointer()].erase(found.drop.back());
    for (const auto key : DetailKeys) {
        const auto it = object.find(key);
        if (it == object.end() || !it->is_string())
            continue;
        const std::string& detail = it->get_ref<const std::string&>();
        if (!detail.empty() && message.find(detail) == std::string::npos)
            text.append("\n").append(detail);
        object.erase(it);
    }
    if (holdsText(object))
        text.append("\n").append(object.dump(-1, ' ', false, json::error_handler_t::replace));
    return true;
}

/// Time and host from the record or the objects it nests (Cloud Logging's resource labels, Kubernetes metadata).
void takeContext(const json& object, Envelope& out, int depth = 0)
{
    for (const auto key : TimeKeys)
        if (const json* value = member(object, key); value != nullptr && out.time == engine::NoTime)
            out.time = timeOf(*value);
    for (const auto key : HostKeys)
        if (const json* value = member(object, key); value != nullptr && out.host.empty())
            out.host = hostOf(*value);
    if (depth >= 3)
        return;
    for (const char* key :
         {"jsonPayload", "_source", "attributes", "kubernetes", "resource", "labels", "extraInfo", "message"})
        if (const json* nested = member(object, key); nested != nullptr && nested->is_object())
            takeContext(*nested, out, depth + 1);
}

bool fromObject(json& object, Envelope& out)
{
    takeContext(object, out);
    std::string text;
    if (!takeMessage(object, text))
        return false;
    appendMessageLines(text, out);
    return true;
}

/// fluent-bit's stdout output: `[0] kube.var.log.containers.x.log: [1733047872.345678901, {"log"=>"...", ...}]`.
/// Its record is JSON with `=>` for `:`.
bool fromFluentBit(std::string_view line, Envelope& out)
{
    const std::size_t open = line.find(": [");
    if (open == std::string_view::npos || open > 512 || line.size() < 2 || line[line.size() - 1] != ']')
        return false;
    const std::size_t comma = line.find(", {", open);
    if (comma == std::string_view::npos)
        return false;
    std::string record;
    const std::string_view body = line.substr(comma + 2, line.size() - 1 - (comma + 2));
    record.reserve(body.size());
    bool quoted = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (quoted && c == '\\' && i + 1 < body.size()) {
            record.append(body.substr(i, 2));
            ++i;
            continue;
        }
        if (c == '"')
            quoted = !quoted;
        if (!quoted && c == '=' && i + 1 < body.size() && body[i + 1] == '>') {
            record.push_back(':');
            ++i;
            continue;
        }
        record.push_back(c);
    }
    json object = json::parse(record, nullptr, false);
    if (object.is_discarded() || !object.is_object() || !fromObject(object, out))
        return false;
    if (out.time == engine::NoTime)
        if (const auto stamp = engine::parseFinite(line.substr(open + 3, comma - open - 3)))
            out.time = unixTime(*stamp);
    return true;
}

/// One member of a pretty-printed record on its own line: `"message": "...",`.
bool fromMember(std::string_view line, Envelope& out)
{
    const std::size_t close = line.find('"', 1);
    if (close == std::string_view::npos)
        return false;
    const std::string_view key = line.substr(1, close - 1);
    bool known = false;
    for (const auto k : MessageKeys)
        known = known || (k == key && k != "line");
    if (!known)
        return false;
    std::string_view value = trimmed(line.substr(close + 1));
    if (value.empty() || value.front() != ':')
        return false;
    value = trimmed(value.substr(1));
    if (!value.empty() && value.back() == ',')
        value.remove_suffix(1);
    if (value.size() < 2 || value.front() != '"' || value.back() != '"')
        return false;
    const json parsed = json::parse(value, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_string())
        return false;
    const std::string& text = parsed.get_ref<const std::string&>();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return false;
    appendMessageLines(text, out);
    return true;
}

/// One `key=value` pair of a logfmt line; the value unquoted and unescaped when it was quoted.
struct Pair {
    std::string_view key;
    std::string value;
};

/// The value after `key=` at `pos`: a Go-quoted string (`\"`, `\\`, `\n`, `\t`, `\r` unescaped, other escapes kept)
/// or a bare token up to the next blank. False for an unterminated quote.
bool readValue(std::string_view s, std::size_t& pos, std::string& value)
{
    value.clear();
    if (pos >= s.size() || s[pos] != '"') {
        const std::size_t end = std::min(s.find(' ', pos), s.size());
        value.assign(s.substr(pos, end - pos));
        pos = end;
        return true;
    }
    for (++pos; pos < s.size(); ++pos) {
        const char c = s[pos];
        if (c == '"') {
            ++pos;
            return true;
        }
        if (c != '\\' || pos + 1 >= s.size()) {
            value.push_back(c);
            continue;
        }
        const char e = s[++pos];
        switch (e) {
        case 'n': value.push_back('\n'); break;
        case 't': value.push_back('\t'); break;
        case 'r': break;
        case '"':
        case '\\': value.push_back(e); break;
        default: value.push_back('\\'); value.push_back(e);
        }
    }
    return false;
}

/// A logfmt line as logrus, Go's slog TextHandler and go-kit write it (`time="2021-05-12T17:31:12Z" level=error
/// msg="Failed to collect metrics ..." error="..."`): every token a `key=value` pair, keys of letters, digits, `_`,
/// `.` and `-`, with a `msg` or `message` pair.
bool parseLogfmt(std::string_view s, std::vector<Pair>& pairs)
{
    std::size_t pos = 0;
    while (pos < s.size() && pairs.size() < 64) {
        while (pos < s.size() && s[pos] == ' ')
            ++pos;
        if (pos == s.size())
            break;
        const std::size_t start = pos;
        while (pos < s.size() &&
               (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.' || s[pos] == '-'))
            ++pos;
        if (pos == start || pos >= s.size() || s[pos] != '=')
            return false;
        Pair pair{s.substr(start, pos - start), {}};
        ++pos;
        if (!readValue(s, pos, pair.value) || (pos < s.size() && s[pos] != ' '))
            return false;
        pairs.push_back(std::move(pair));
    }
    return std::any_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.key == "msg" || p.key == "message"; });
}

bool fromLogfmt(std::string_view line, Envelope& out)
{
    std::vector<Pair> pairs;
    if (!parseLogfmt(line, pairs))
        return false;
    std::string message;
    std::string details;
    std::string rest;
    for (const Pair& p : pairs) {
        const std::string key(p.key);
        if (key == "msg" || key == "message")
            message = p.value;
        else if (std::find(DetailKeys.begin(), DetailKeys.end(), p.key) != DetailKeys.end())
            details.append("\n").append(p.value);
        else if (std::find(TimeKeys.begin(), TimeKeys.end(), p.key) != TimeKeys.end()) {
            if (const auto stamp = parseIso8601(p.value); stamp && out.time == engine::NoTime)
                out.time = stamp->time;
        } else if (std::find(HostKeys.begin(), HostKeys.end(), p.key) != HostKeys.end())
            out.host = p.value;
        else if (!isMetadataKey(key))
            rest.append(rest.empty() ? "" : " ").append(key).append("=").append(p.value);
    }
    if (message.find_first_not_of(" \t\r\n") == std::string::npos)
        return false;
    if (!rest.empty())  // the record's other fields stay beside its message, as the handler printed them
        message.append(" ").append(rest);
    appendMessageLines(message + details, out);
    return true;
}

/// The key a logfmt line opens with when a logger writes its time or level first.
bool opensLogfmt(std::string_view s)
{
    for (const std::string_view key : {"time=", "ts=", "timestamp=", "level=", "lvl="})
        if (s.substr(0, key.size()) == key)
            return true;
    return false;
}

}  // namespace

bool mayBeEnvelope(std::string_view line)
{
    const std::string_view s = trimmed(line);
    return !s.empty() && (s.front() == '{' || s.front() == '"' || s.front() == '[' || opensLogfmt(s));
}

bool unwrapEnvelope(std::string_view line, Envelope& out)
{
    out.lines.clear();
    out.time = engine::NoTime;
    out.host.clear();
    const std::string_view s = trimmed(line);
    if (s.size() < 4 || !shallow(s))
        return false;
    if (s.front() == '{' && s.back() == '}') {
        json object = json::parse(s, nullptr, false);
        return !object.is_discarded() && object.is_object() && fromObject(object, out);
    }
    if (s.front() == '"')
        return fromMember(s, out);
    if (opensLogfmt(s))
        return fromLogfmt(s, out);
    return s.front() == '[' && fromFluentBit(s, out);
}

}  // namespace attrib::importers::detail
