// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lazy_regex.h"

namespace attrib::engine {

LazyRegex::LazyRegex(std::string pattern, const re2::RE2::Options& options, int programSize)
    : m_pattern(std::move(pattern))
    , m_options(options)
    , m_programSize(programSize)
{
}

LazyRegex::~LazyRegex() = default;

const re2::RE2& LazyRegex::regex() const
{
    std::call_once(m_once, [this] { m_re = std::make_unique<re2::RE2>(m_pattern, m_options); });
    return *m_re;
}

std::shared_ptr<const LazyRegex> freshCopy(const std::shared_ptr<const LazyRegex>& re)
{
    return re ? std::make_shared<const LazyRegex>(re->pattern(), re->options(), re->programSize()) : re;
}

std::string captureField(const std::string& group)
{
    const auto cut = group.find("__");
    return cut == std::string::npos || cut == 0 ? group : group.substr(0, cut);
}

}  // namespace attrib::engine
