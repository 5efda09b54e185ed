#pragma once
// Precompiled once per link group of test programs and reused by every test of the group
// (tests/CMakeLists.txt): Qt Test, which pulls in all of Qt Core, and the headers most tests include.
// Nothing of the product here: a product header change must not rebuild the precompiled header.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>
