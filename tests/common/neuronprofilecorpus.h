#pragma once
// The corpus's neuron-profile JSON exports (neuron-profile-json/*.json) and their fields read as plain
// JSON, for the tests that compare Lanescope's numbers with the export's own (the ground truth).
#include "corpus.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPair>
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

// Every corpus export that has its NTFF beside it, as (export, NTFF) absolute paths: neuron-profile-json/
// X.json with X.ntff (profiler 2.27, inf2), neuron-trn2-v6/<cfg>/*_profile_full.json with the one NTFF of
// its folder (profiler 2.28, trn2; PROVENANCE.md). Empty without the corpus.
inline QList<QPair<QString, QString>> neuronProfileExportsWithNtff()
{
    QList<QPair<QString, QString>> out;
    for (const QString &j : neuronProfileJsons()) {
        const QString ntff = j.chopped(5) + QLatin1String(".ntff");
        if (QFile::exists(ntff))
            out.append({j, ntff});
    }
    const QString v6 = corpusFile(QStringLiteral("neuron-trn2-v6"));
    if (v6.isEmpty() || !QDir(v6).exists())
        return out;
    for (const QString &cfg : QDir(v6).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir d(v6 + QLatin1Char('/') + cfg);
        const QStringList jsons = d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        const QStringList ntffs = d.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
        if (jsons.size() == 1 && ntffs.size() == 1)
            out.append({d.filePath(jsons.front()), d.filePath(ntffs.front())});
    }
    return out;
}

} // namespace lanescope::test
