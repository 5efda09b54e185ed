#include "insightsjson.h"

#include <QJsonArray>

#include <cstdint>
#include <optional>
#include <utility>

namespace lanescope {

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }

// Every finding, or (capture = true / false) only the capture checks / only the others.
QJsonArray findings(const std::vector<Finding> &list, std::optional<bool> capture = std::nullopt)
{
    QJsonArray a;
    for (const Finding &f : list)
        if (!capture || Finding::isCapture(f.rule) == *capture)
            a.append(InsightsJson::finding(f));
    return a;
}

} // namespace

QJsonObject InsightsJson::finding(const Finding &f)
{
    QJsonObject o;
    o[QStringLiteral("rule")] = q(f.rule);
    o[QStringLiteral("severity")] = QString::fromLatin1(Finding::severityName(f.severity));
    o[QStringLiteral("title")] = q(f.title);
    o[QStringLiteral("detail")] = q(f.detail);
    o[QStringLiteral("action")] = q(f.action);
    o[QStringLiteral("value")] = f.value;
    o[QStringLiteral("threshold")] = f.threshold;
    o[QStringLiteral("recoverable_ns")] = f.recoverableNs ? QJsonValue(qint64(*f.recoverableNs)) : QJsonValue();
    // The Python frame the finding's events share (FindingSource), null without one.
    o[QStringLiteral("python_frame")] = f.source.empty() ? QJsonValue() : QJsonValue(q(f.source));
    o[QStringLiteral("python_frame_share")] = f.source.empty() ? QJsonValue() : QJsonValue(f.sourceShare);
    QJsonArray events, ranges;
    for (uint32_t e : f.events)
        events.append(qint64(e));
    for (const auto &[s, e] : f.ranges)
        ranges.append(QJsonArray{qint64(s), qint64(e)});
    o[QStringLiteral("events")] = events;
    o[QStringLiteral("ranges")] = ranges;
    return o;
}

std::string InsightsJson::readFinding(const QJsonObject &o, Finding &f)
{
    const auto text = [&o](const char *key, std::string &out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isString())
            return std::string(key) + ": expected a string";
        out = v.toString().toStdString();
        return std::string();
    };
    const auto number = [&o](const char *key, double &out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isDouble())
            return std::string(key) + ": expected a number";
        out = v.toDouble();
        return std::string();
    };
    std::string severity, error;
    const std::pair<const char *, std::string *> texts[] = {
        {"rule", &f.rule}, {"severity", &severity}, {"title", &f.title}, {"detail", &f.detail}, {"action", &f.action}};
    for (const auto &[key, out] : texts)
        if (error = text(key, *out); !error.empty())
            return error;
    const std::optional<Severity> level = Finding::severityFromName(severity);
    if (!level)
        return "severity: expected high, medium or low";
    f.severity = *level;
    if (error = number("value", f.value); !error.empty())
        return error;
    if (error = number("threshold", f.threshold); !error.empty())
        return error;
    const QJsonValue recoverable = o.value(QStringLiteral("recoverable_ns"));
    if (recoverable.isDouble() && recoverable.toInteger(INT64_MIN) != INT64_MIN)
        f.recoverableNs = recoverable.toInteger();
    else if (!recoverable.isNull() && !recoverable.isUndefined())
        return "recoverable_ns: expected an integer or null";
    const QJsonValue frame = o.value(QStringLiteral("python_frame"));
    if (frame.isString()) {
        f.source = frame.toString().toStdString();
        f.sourceShare = o.value(QStringLiteral("python_frame_share")).toDouble();
    }
    for (const QJsonValue &e : o.value(QStringLiteral("events")).toArray()) {
        const qint64 id = e.toInteger(-1);
        if (id < 0 || id > qint64(UINT32_MAX))
            return "events: expected slice ids";
        f.addEvent(uint32_t(id));
    }
    for (const QJsonValue &r : o.value(QStringLiteral("ranges")).toArray()) {
        const QJsonArray pair = r.toArray();
        if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
            return "ranges: expected [start_ns, end_ns] pairs";
        if (f.ranges.size() < Finding::kMaxEvents)
            f.ranges.emplace_back(pair[0].toInteger(), pair[1].toInteger());
    }
    return {};
}

QJsonObject InsightsJson::metrics(const KeyMetrics &m)
{
    QJsonObject o;
    o[QStringLiteral("span_ns")] = qint64(m.spanNs);
    QJsonArray devices;
    for (const auto &d : m.devices)
        devices.append(QJsonObject{{QStringLiteral("device"), q(d.name)},
                                   {QStringLiteral("total_ns"), qint64(d.totalNs)},
                                   {QStringLiteral("busy_ns"), qint64(d.busyNs)},
                                   {QStringLiteral("idle_ns"), qint64(d.idleNs)},
                                   {QStringLiteral("busy_percent"), d.busyPercent}});
    o[QStringLiteral("devices")] = devices;
    o[QStringLiteral("device_total_ns")] = qint64(m.deviceTotalNs);
    o[QStringLiteral("device_busy_ns")] = qint64(m.deviceBusyNs);
    o[QStringLiteral("device_idle_ns")] = qint64(m.deviceIdleNs);
    QJsonArray engines;
    for (const auto &e : m.engines)
        engines.append(QJsonObject{{QStringLiteral("core"), q(e.core)},
                                   {QStringLiteral("engine"), q(e.engine)},
                                   {QStringLiteral("active_ns"), qint64(e.activeNs)},
                                   {QStringLiteral("active_percent"), e.activePercent}});
    o[QStringLiteral("engines")] = engines;
    QJsonArray dma;
    for (const auto &d : m.dma)
        dma.append(QJsonObject{{QStringLiteral("kind"), q(d.kind)},
                               {QStringLiteral("bytes"), qint64(d.bytes)},
                               {QStringLiteral("packets"), qint64(d.packets)},
                               {QStringLiteral("active_ns"), qint64(d.activeNs)},
                               {QStringLiteral("throughput_bytes_per_s"), d.throughputBytesPerSec}});
    o[QStringLiteral("dma")] = dma;
    o[QStringLiteral("dma_bytes")] = qint64(m.dmaBytes);
    o[QStringLiteral("average_dma_bytes")] = m.averageDmaBytes;
    o[QStringLiteral("mfu_percent")] = m.mfuPercent ? QJsonValue(*m.mfuPercent) : QJsonValue();
    o[QStringLiteral("hfu_percent")] = m.hfuPercent ? QJsonValue(*m.hfuPercent) : QJsonValue();
    o[QStringLiteral("mbu_percent")] = m.mbuPercent ? QJsonValue(*m.mbuPercent) : QJsonValue();
    QJsonObject traffic; // neuron-profile's summary field names
    for (const KeyMetrics::Traffic &t : m.hbmTraffic)
        traffic[QString::fromStdString(t.key)] = t.bytes;
    o[QStringLiteral("hbm_traffic")] = traffic;
    o[QStringLiteral("framework_cpu_ns")] = qint64(m.frameworkCpuNs);
    o[QStringLiteral("device_ns")] = qint64(m.deviceNs);
    o[QStringLiteral("steps")] = qint64(m.steps);
    o[QStringLiteral("median_step_ns")] = qint64(m.medianStepNs);
    return o;
}

QJsonObject InsightsJson::result(const Insights::Result &r)
{
    QJsonObject o;
    o[QStringLiteral("metrics")] = metrics(r.metrics);
    o[QStringLiteral("capture")] = findings(r.findings, true);
    o[QStringLiteral("findings")] = findings(r.findings, false);
    return o;
}

QJsonObject InsightsJson::diff(const FindingsDiffResult &d)
{
    QJsonObject o;
    o[QStringLiteral("resolved")] = findings(d.resolved);
    o[QStringLiteral("new")] = findings(d.added);
    QJsonArray changed;
    for (const auto &[a, b] : d.changed)
        changed.append(QJsonObject{{QStringLiteral("a"), finding(a)}, {QStringLiteral("b"), finding(b)}});
    o[QStringLiteral("changed")] = changed;
    return o;
}

} // namespace lanescope
