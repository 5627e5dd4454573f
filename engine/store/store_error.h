// SPDX-License-Identifier: GPL-3.0-or-later
// The one exception the case store throws: its message always names the store file.
#pragma once

#include <stdexcept>
#include <string>

namespace attrib::store {

/// What went wrong with a store. `kind` lets callers react (e.g. offer read-only opening) without parsing text.
class StoreError : public std::runtime_error {
public:
    enum class Kind {
        Io,           ///< cannot open / read / write the file
        NotDatabase,  ///< not an SQLite file, or a corrupt / truncated one
        Foreign,      ///< an SQLite database of another application
        NewerSchema,  ///< written by a newer attrib
        ReadOnly,     ///< a write was needed but the store is read-only
        Busy,         ///< another process held the lock past the busy timeout
        NotFound,     ///< no case with that id
        Invalid       ///< bad argument (e.g. a label value outside the vocabulary)
    };
    StoreError(Kind kind, const std::string& message)
        : std::runtime_error(message)
        , m_kind(kind)
    {
    }
    Kind kind() const { return m_kind; }

private:
    Kind m_kind;
};

}  // namespace attrib::store
