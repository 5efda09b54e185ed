#include "rankjob.h"

#include "model/trace.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lanescope {

namespace {

std::string text(const QJsonValue &v)
{
    return v.isDouble() ? std::to_string(v.toInteger()) : v.toString().toStdString();
}

} // namespace

RankJob RankJob::ofDistributedInfo(std::string_view json)
{
    RankJob job;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size())));
    if (!doc.isObject())
        return job;
    const QJsonObject info = doc.object();
    const QJsonValue ws = info.value(QStringLiteral("world_size"));
    if (ws.isDouble() && ws.toInteger(-1) >= 0)
        job.worldSize = ws.toInteger();
    for (const QJsonValue &v : info.value(QStringLiteral("pg_config")).toArray()) {
        const QJsonObject pg = v.toObject();
        std::string ranks;
        for (const QJsonValue &r : pg.value(QStringLiteral("ranks")).toArray())
            ranks += (ranks.empty() ? "" : ",") + text(r);
        job.groups += (job.groups.empty() ? "" : "; ") + text(pg.value(QStringLiteral("pg_name"))) + ":" +
                      text(pg.value(QStringLiteral("pg_size"))) + ":[" + ranks + "]";
    }
    return job;
}

RankJob RankJob::of(const Trace &trace)
{
    const std::string *info = trace.metadata().find("distributedInfo");
    return info ? ofDistributedInfo(*info) : RankJob();
}

std::string RankJob::describe() const
{
    if (!known())
        return "no distributedInfo";
    std::string s = worldSize >= 0 ? "world size " + std::to_string(worldSize) : std::string("world size unknown");
    if (!groups.empty())
        s += ", process groups " + groups;
    return s;
}

} // namespace lanescope
