#pragma once
// The corpus's neuron-profile JSON exports (neuron-profile-json/*.json) and their fields read as plain
// JSON, for the tests that compare Lanescope's numbers with the export's own (the ground truth).
#include "corpus.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace lanescope::test {

// A whole JSON file as an object ({} when it cannot be read or is no object).
inline QJsonObject jsonObjectOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Every corpus export, absolute paths in name order (empty without the corpus).
inline QStringList neuronProfileJsons()
{
    const QString dir = corpusFile(QStringLiteral("neuron-profile-json"));
    QStringList out;
    if (dir.isEmpty() || !QDir(dir).exists())
        return out;
    for (const QString &j : QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        out << dir + QLatin1Char('/') + j;
    return out;
}

} // namespace lanescope::test
