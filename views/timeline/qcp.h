// SPDX-License-Identifier: GPL-3.0-or-later
// Includes QCustomPlot under QT_NO_KEYWORDS: its header still uses the `signals` and `foreach` keywords.
#pragma once

#ifndef signals
#define signals Q_SIGNALS
#define ATTRIB_QCP_UNDEF_SIGNALS
#endif
#ifndef foreach
#define foreach Q_FOREACH
#define ATTRIB_QCP_UNDEF_FOREACH
#endif

#include <qcustomplot.h>

#ifdef ATTRIB_QCP_UNDEF_SIGNALS
#undef signals
#undef ATTRIB_QCP_UNDEF_SIGNALS
#endif
#ifdef ATTRIB_QCP_UNDEF_FOREACH
#undef foreach
#undef ATTRIB_QCP_UNDEF_FOREACH
#endif
