#pragma once
// A test that runs an external program (the sqlite3 shell, desktop-file-validate, ...) says so with
// LANESCOPE_REQUIRE_TOOL("program", "debian-package"): when the program is not on PATH the test skips
// naming it and its package, or, with LANESCOPE_REQUIRE_CORPUS=1 (CI, where
// packaging/install-deps-debian.sh installs every such program), fails.
#include "corpus.h"

#include <QStandardPaths>

#define LANESCOPE_REQUIRE_TOOL(program, package)                                                                 \
    do {                                                                                                         \
        if (QStandardPaths::findExecutable(QStringLiteral(program)).isEmpty())                                   \
            LANESCOPE_SKIP_OR_FAIL(QStringLiteral(program " is not installed (Debian package " package ")"));   \
    } while (0)
