# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings for our own code only (not for QCustomPlot or other imported headers). Warnings are errors by default:
# the tree stays warning-free (configure with -DATTRIB_WERROR=OFF to look at a new compiler's list first).
option(ATTRIB_WERROR "Treat compiler warnings in the project's own code as errors" ON)
add_library(attrib_warnings INTERFACE)
target_compile_options(attrib_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
  -Wcast-align -Woverloaded-virtual)
# -Wmaybe-uninitialized (off since the first commit) is GCC's own; Clang rejects the unknown option under -Werror.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(attrib_warnings INTERFACE -Wno-maybe-uninitialized)
endif()
if(ATTRIB_WERROR)
  target_compile_options(attrib_warnings INTERFACE -Werror)
endif()
