# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings for our own code only (not for QCustomPlot or other imported headers).
add_library(attrib_warnings INTERFACE)
target_compile_options(attrib_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
  -Wcast-align -Woverloaded-virtual -Wno-maybe-uninitialized)
