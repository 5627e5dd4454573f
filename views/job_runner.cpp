// SPDX-License-Identifier: GPL-3.0-or-later
// The jobs' thread pool.
#include "views/job_runner.h"

#include <QThread>

#include <algorithm>

namespace attrib::views {

QThreadPool* jobThreadPool()
{
    static QThreadPool pool;
    static const bool sized = [] {
        pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        pool.setObjectName(QStringLiteral("attrib-jobs"));
        return true;
    }();
    (void)sized;
    return &pool;
}

}  // namespace attrib::views
