// SPDX-License-Identifier: GPL-3.0-or-later
// The hostile suite's scratch space: one temporary folder per test class, a fresh sub-folder per test.
#pragma once

#include <QTemporaryDir>
#include <QtGlobal>

#include <filesystem>
#include <string>

namespace attrib::tests {

/// Stops the test program when the temporary folder cannot be made (nothing could run without it).
class ScratchRoot {
public:
    ScratchRoot()
    {
        if (!m_tmp.isValid())
            qFatal("cannot create a temporary folder: %s", qPrintable(m_tmp.errorString()));
    }
    std::filesystem::path root() const { return m_tmp.path().toStdString(); }
    /// `root()/name`, created with its parents.
    std::filesystem::path scratch(const std::string& name) const
    {
        std::filesystem::path p = root() / name;
        std::filesystem::create_directories(p);
        return p;
    }

private:
    QTemporaryDir m_tmp;
};

}  // namespace attrib::tests
