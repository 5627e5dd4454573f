// SPDX-License-Identifier: GPL-3.0-or-later
// Container platforms' prefixes on application lines: `kubectl logs --prefix`, Docker Compose's service column,
// stern's pod and container.
#include "importers/format_prefix.h"

#include <algorithm>
#include <cctype>

namespace attrib::importers::detail {

/// `kubectl logs --prefix`: `[pod/name/container] ` (the line's own indentation after it is kept: a traceback's
/// frames).
bool stripPod(std::string_view& s)
{
    if (!startsWith(s, "[pod/"))
        return false;
    const std::size_t close = s.find("] ");
    if (close == std::string_view::npos || close > 300 || s.substr(0, close).find(' ') != std::string_view::npos)
        return false;
    s.remove_prefix(close + 2);
    return true;
}

/// Docker Compose's service prefix, `<container> | ` with the name padded to the widest container of the project
/// (`fmt.Sprintf("%-"+width+"s | ", name)` in docker/compose cmd/formatter/logs.go at 13d70b1c; v1 wrote the same
/// column): `vllm-1  | `, `project_trainer_1  | `. Only a name ending in its replica number counts, so the first cell
/// of a table row (`GPU | Name`, `mlx5_0 | ib0`) stays text.
bool stripComposeService(std::string_view& s)
{
    std::size_t pos = 0;
    while (pos < s.size() && pos <= 128 &&
           (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '-' || s[pos] == '.'))
        ++pos;
    std::size_t digits = pos;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(s[digits - 1])))
        --digits;
    // v2 joins service and replica with '-'; v1 wrote `<project>_<service>_<n>`, two underscores (a device's own
    // name such as `mlx5_0` heading an lshca row has one).
    const bool v2 = digits >= 2 && s[digits - 1] == '-';
    const bool v1 = digits >= 2 && s[digits - 1] == '_' && s.substr(0, digits - 1).find('_') != std::string_view::npos;
    if ((!v1 && !v2) || digits == pos || !charAt(s, pos, ' '))
        return false;
    std::size_t bar = pos;
    while (charAt(s, bar, ' '))
        ++bar;
    if (!charAt(s, bar, '|') || (bar + 1 < s.size() && s[bar + 1] != ' '))
        return false;
    s.remove_prefix(std::min(bar + 2, s.size()));
    return true;
}

namespace {

/// A DNS label as Kubernetes names a container or namespace: lower-case letters, digits and inner `-`, at most 63.
bool isDnsLabel(std::string_view w)
{
    if (w.empty() || w.size() > 63 || w.front() == '-' || w.back() == '-')
        return false;
    return std::all_of(w.begin(), w.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

/// A pod name a controller generated: a name, then the five characters Kubernetes draws from its consonant-and-digit
/// alphabet (`bcdfghjklmnpqrstvwxz2456789`, apimachinery pkg/util/rand/rand.go): a Deployment's
/// `vllm-7d4f9c8b6-x2kq9`, a Job's `train-job-5hz7m`, a JobSet's `llama-workers-0-1-q8k2n`. A bare index
/// (`worker-0`) is not enough: a sentence can start with one.
bool isGeneratedPodName(std::string_view w)
{
    const std::size_t dash = w.rfind('-');
    if (w.size() > 253 || dash == std::string_view::npos || dash == 0 || w.size() - dash - 1 != 5)
        return false;
    const std::string_view suffix = w.substr(dash + 1);
    constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
    return isDnsLabel(w.substr(0, dash)) &&
        std::all_of(suffix.begin(), suffix.end(), [&](char c) { return alphabet.find(c) != std::string_view::npos; });
}

}  // namespace

/// stern's default line, `<pod> <container> <message>`, with the namespace first when it tails several
/// (`{{color .PodColor .PodName}} {{color .ContainerColor .ContainerName}} {{.Message}}`, cmd/cmd.go at v1.34.0; the
/// colours are gone once the terminal codes are). Only a generated pod name counts.
bool stripSternPod(std::string_view& s)
{
    const auto word = [&s](std::size_t from) {
        const std::size_t end = s.find(' ', from);
        return end == std::string_view::npos ? std::string_view() : s.substr(from, end - from);
    };
    const std::string_view first = word(0);
    const std::string_view second = first.empty() ? first : word(first.size() + 1);
    if (second.empty())
        return false;
    std::size_t length = 0;
    if (isGeneratedPodName(first) && isDnsLabel(second))
        length = first.size() + second.size() + 2;
    else if (isDnsLabel(first) && isGeneratedPodName(second)) {
        const std::string_view third = word(first.size() + second.size() + 2);
        if (isDnsLabel(third))
            length = first.size() + second.size() + third.size() + 3;
    }
    if (length == 0 || length >= s.size())
        return false;
    s.remove_prefix(length);
    return true;
}

}  // namespace attrib::importers::detail
