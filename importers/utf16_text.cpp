// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-16 text read as UTF-8 (utf16_text.h).
#include "importers/utf16_text.h"

#include <memory>
#include <vector>

namespace attrib::importers {

namespace {

constexpr char32_t Replacement = 0xFFFD;

/// Decodes UTF-16 code units into UTF-8, keeping a split pair or a high surrogate for the next call.
class Transcoder {
public:
    explicit Transcoder(Utf16Order order)
        : m_littleEndian(order == Utf16Order::LittleEndian)
    {
    }

    void feed(std::string_view bytes, std::string& out)
    {
        for (const char c : bytes) {
            if (!m_haveByte) {
                m_byte = static_cast<unsigned char>(c);
                m_haveByte = true;
                continue;
            }
            m_haveByte = false;
            const auto second = static_cast<unsigned char>(c);
            unit(static_cast<char16_t>(m_littleEndian ? m_byte | (second << 8) : (m_byte << 8) | second), out);
        }
    }

    void finish(std::string& out)
    {
        if (m_high != 0)
            appendUtf8(out, Replacement);
        if (m_haveByte)
            appendUtf8(out, Replacement);
        m_high = 0;
        m_haveByte = false;
    }

private:
    void unit(char16_t u, std::string& out)
    {
        if (m_first) {
            m_first = false;
            if (u == 0xFEFF)
                return;  // the byte-order mark
        }
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (m_high != 0)
                appendUtf8(out, Replacement);
            m_high = u;
            return;
        }
        if (u >= 0xDC00 && u <= 0xDFFF) {
            appendUtf8(out,
                       m_high != 0 ? 0x10000 + ((char32_t(m_high) - 0xD800) << 10) + (char32_t(u) - 0xDC00)
                                   : Replacement);
            m_high = 0;
            return;
        }
        if (m_high != 0)
            appendUtf8(out, Replacement);
        m_high = 0;
        appendUtf8(out, u);
    }

    bool m_littleEndian = true;
    bool m_first = true;
    bool m_haveByte = false;
    unsigned m_byte = 0;
    char16_t m_high = 0;
};

}  // namespace

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

Utf16Order utf16Order(std::string_view head)
{
    if (head.size() >= 2) {
        const auto b0 = static_cast<unsigned char>(head[0]);
        const auto b1 = static_cast<unsigned char>(head[1]);
        if (b0 == 0xFF && b1 == 0xFE)
            return Utf16Order::LittleEndian;
        if (b0 == 0xFE && b1 == 0xFF)
            return Utf16Order::BigEndian;
    }
    const std::size_t pairs = std::min(head.size(), Utf16ProbeBytes) / 2;
    if (pairs < 8)
        return Utf16Order::None;
    std::size_t evenZero = 0;
    std::size_t oddZero = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
        evenZero += head[2 * i] == '\0' ? 1 : 0;
        oddZero += head[2 * i + 1] == '\0' ? 1 : 0;
    }
    if (oddZero * 10 >= pairs * 9 && evenZero * 20 <= pairs)
        return Utf16Order::LittleEndian;
    if (evenZero * 10 >= pairs * 9 && oddZero * 20 <= pairs)
        return Utf16Order::BigEndian;
    return Utf16Order::None;
}

ReadFn utf16Reader(ReadFn inner, Utf16Order order)
{
    struct State {
        ReadFn inner;
        Transcoder transcoder;
        std::string pending;  ///< UTF-8 decoded and not yet handed out
        std::size_t pos = 0;
        std::vector<char> raw;
        bool done = false;
    };
    auto s = std::make_shared<State>(State{std::move(inner), Transcoder(order), {}, 0, std::vector<char>(64 * 1024)});
    return [s](char* buffer, std::size_t capacity) -> long {
        while (s->pos == s->pending.size() && !s->done) {
            s->pending.clear();
            s->pos = 0;
            const long got = s->inner(s->raw.data(), s->raw.size());
            if (got < 0)
                return -1;
            if (got == 0) {
                s->done = true;
                s->transcoder.finish(s->pending);
            } else {
                s->transcoder.feed(std::string_view(s->raw.data(), static_cast<std::size_t>(got)), s->pending);
            }
        }
        const std::size_t n = std::min(capacity, s->pending.size() - s->pos);
        std::copy_n(s->pending.data() + s->pos, n, buffer);
        s->pos += n;
        return static_cast<long>(n);
    };
}

}  // namespace attrib::importers
